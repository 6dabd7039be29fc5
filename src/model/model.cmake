# Sources of the model layer: parameter sets and material functions.
