# Tests of the krylov part of the linear-algebra layer.
