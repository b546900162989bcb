/* SPDX-License-Identifier: MIT */
/* weft: the types of HIP's runtime compiler, and no functions.
 *
 * weft has no hiprtc library: its kernels are C++ compiled with the program (single source) or
 * code objects loaded with hipModuleLoad*. AMD ships hiprtc as a separate library (libhiprtc),
 * and weft's libamdhip64 exports none of its symbols (src/api/exports.txt), so this header
 * declares none: a program that calls hiprtc fails to compile, naming the function, rather than
 * failing to link or failing at run time. Programs that only mention the types compile. */
#ifndef HIP_INCLUDE_HIP_HIPRTC_H
#define HIP_INCLUDE_HIP_HIPRTC_H

typedef enum hiprtcResult {
  HIPRTC_SUCCESS = 0,
  HIPRTC_ERROR_OUT_OF_MEMORY = 1,
  HIPRTC_ERROR_PROGRAM_CREATION_FAILURE = 2,
  HIPRTC_ERROR_INVALID_INPUT = 3,
  HIPRTC_ERROR_INVALID_PROGRAM = 4,
  HIPRTC_ERROR_INVALID_OPTION = 5,
  HIPRTC_ERROR_COMPILATION = 6,
  HIPRTC_ERROR_BUILTIN_OPERATION_FAILURE = 7,
  HIPRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION = 8,
  HIPRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION = 9,
  HIPRTC_ERROR_NAME_EXPRESSION_NOT_VALID = 10,
  HIPRTC_ERROR_INTERNAL_ERROR = 11
} hiprtcResult;

typedef struct _hiprtcProgram* hiprtcProgram;

#endif /* HIP_INCLUDE_HIP_HIPRTC_H */
