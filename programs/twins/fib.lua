-- Twin benchmark: naive recursive Fibonacci.
local function fib(n)
  if n < 2 then return n end
  return fib(n - 1) + fib(n - 2)
end

for n = 25, 35, 5 do
  io.write(string.format("fib(%d) = %d\n", n, fib(n)))
end
