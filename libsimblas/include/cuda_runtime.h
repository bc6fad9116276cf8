/* SPDX-License-Identifier: Apache-2.0 */
/* simmpi's CUDA runtime header: everything is in cuda_runtime_api.h. */
#ifndef SIMMPI_CUDA_RUNTIME_H
#define SIMMPI_CUDA_RUNTIME_H
#include "cuda_runtime_api.h"
#endif
