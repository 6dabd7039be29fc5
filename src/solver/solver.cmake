# Sources of the solver layer: the sub-steps of a time step and the integrator.
