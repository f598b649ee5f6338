/* A function defined in a header. */
int twice(int v) {
    return v * 2;
}
