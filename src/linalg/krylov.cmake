# Sources of the krylov part of the linear-algebra layer (see docs/design.md).
