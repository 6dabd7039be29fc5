# Sources of the sparse part of the linear-algebra layer (see docs/design.md).
