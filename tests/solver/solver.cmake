# Tests of the solver layer.
