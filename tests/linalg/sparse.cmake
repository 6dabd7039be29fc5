# Tests of the sparse part of the linear-algebra layer.
