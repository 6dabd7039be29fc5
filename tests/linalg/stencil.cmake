# Tests of the stencil part of the linear-algebra layer.
