#pragma once
/// @file voltaic.hpp
/// @brief Umbrella header: everything a program using voltaic needs
/// (voltaic/linalg/eigen_interop.hpp is separate: it needs Eigen).

#include "voltaic/core/array.hpp"
#include "voltaic/core/error.hpp"
#include "voltaic/core/executor.hpp"
#include "voltaic/core/field_set.hpp"
#include "voltaic/core/grid.hpp"
#include "voltaic/core/memory_space.hpp"
#include "voltaic/core/version.hpp"
#include "voltaic/core/view.hpp"
#include "voltaic/linalg/blas1.hpp"
#include "voltaic/linalg/boundary.hpp"
#include "voltaic/linalg/csr_matrix.hpp"
#include "voltaic/linalg/ell_matrix.hpp"
#include "voltaic/linalg/krylov.hpp"
#include "voltaic/linalg/plane_multigrid.hpp"
#include "voltaic/linalg/plane_system.hpp"
#include "voltaic/linalg/preconditioner.hpp"
#include "voltaic/linalg/solver.hpp"
#include "voltaic/linalg/stencil_operator.hpp"
#include "voltaic/model/parameter_sets.hpp"
#include "voltaic/solver/batch_simulation.hpp"
#include "voltaic/solver/diffusion_step.hpp"
#include "voltaic/solver/experiment.hpp"
#include "voltaic/solver/lumped_thermal.hpp"
#include "voltaic/solver/particle_step.hpp"
