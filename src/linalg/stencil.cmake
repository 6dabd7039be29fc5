# Sources of the stencil part of the linear-algebra layer (see docs/design.md).
