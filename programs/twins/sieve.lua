-- Twin benchmark: sieve of Eratosthenes, repeated.
local composite = {}
local n = 1000000
for round = 0, 11 do
  for i = 0, n do composite[i] = false end
  local count = 0
  local sum = 0
  for i = 2, n do
    if not composite[i] then
      count = count + 1
      sum = sum + i
      for j = i * 2, n, i do composite[j] = true end
    end
  end
  io.write(string.format("round %d: %d primes up to %d, sum %d\n", round, count, n, sum))
  n = n - 50000
end
