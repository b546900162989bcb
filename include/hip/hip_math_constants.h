// SPDX-License-Identifier: MIT
// HIP's named math constants (AMD's hip_math_constants.h names; CUDA's
// math_constants.h has the same under CUDART_*). Plain literals, so every
// macro is a constant expression in C and C++; the decimal values are the
// shortest that round to the intended float or double, and each *_LO is the
// correctly rounded remainder value - *_HI.
#ifndef WEFT_HIP_MATH_CONSTANTS_H
#define WEFT_HIP_MATH_CONSTANTS_H

/* ---- float ---- */
#define HIP_INF_F              __builtin_inff()
#define HIP_NAN_F              __builtin_nanf("0x3fffff") /* bits 0x7fffffff */
#define HIP_MIN_DENORM_F       __FLT_DENORM_MIN__
#define HIP_MAX_NORMAL_F       __FLT_MAX__
#define HIP_NEG_ZERO_F         (-0.0F)
#define HIP_ZERO_F             0.0F
#define HIP_ONE_F              1.0F
#define HIP_SQRT_HALF_F        7.0710677e-01F
#define HIP_SQRT_HALF_HI_F     7.0710677e-01F
#define HIP_SQRT_HALF_LO_F     1.21016175e-08F
#define HIP_SQRT_TWO_F         1.4142135e+00F
#define HIP_THIRD_F            3.3333334e-01F
#define HIP_PIO4_F             7.853982e-01F
#define HIP_PIO2_F             1.5707964e+00F
#define HIP_3PIO4_F            2.3561945e+00F
#define HIP_2_OVER_PI_F        6.3661975e-01F
#define HIP_SQRT_2_OVER_PI_F   7.978846e-01F
#define HIP_PI_F               3.1415927e+00F
#define HIP_L2E_F              1.442695e+00F
#define HIP_L2T_F              3.321928e+00F
#define HIP_LG2_F              3.01030e-01F
#define HIP_LGE_F              4.342945e-01F
#define HIP_LN2_F              6.931472e-01F
#define HIP_LNT_F              2.3025851e+00F
#define HIP_LNPI_F             1.1447299e+00F
#define HIP_TWO_TO_M126_F      1.1754944e-38F
#define HIP_TWO_TO_126_F       8.507059e+37F
#define HIP_NORM_HUGE_F        __FLT_MAX__
#define HIP_TWO_TO_23_F        8388608.0F
#define HIP_TWO_TO_24_F        16777216.0F
#define HIP_TWO_TO_31_F        2147483648.0F
#define HIP_TWO_TO_32_F        4294967296.0F
/* remquo's quotient bits, and the largest argument trigonometry reduces exactly */
#define HIP_REMQUO_BITS_F      3U
#define HIP_REMQUO_MASK_F      (~((~0U) << HIP_REMQUO_BITS_F))
#define HIP_TRIG_PLOSS_F       105615.0F

/* ---- double ---- */
#define HIP_INF                __builtin_inf()
#define HIP_NAN                (-__builtin_nan("")) /* bits 0xfff8000000000000 */
#define HIP_NEG_ZERO           (-0.0)
#define HIP_MIN_DENORM         __DBL_DENORM_MIN__
#define HIP_ZERO               0.0
#define HIP_ONE                1.0
#define HIP_SQRT_TWO           1.4142135623730951
#define HIP_SQRT_HALF          0.7071067811865476
#define HIP_SQRT_HALF_HI       0.7071067811865476
#define HIP_SQRT_HALF_LO       (-4.833646656726457e-17)
#define HIP_THIRD              0.3333333333333333
#define HIP_TWOTHIRD           0.6666666666666666
#define HIP_PIO4               0.7853981633974483
#define HIP_PIO4_HI            0.7853981633974483
#define HIP_PIO4_LO            3.061616997868383e-17
#define HIP_PIO2               1.5707963267948966
#define HIP_PIO2_HI            1.5707963267948966
#define HIP_PIO2_LO            6.123233995736766e-17
#define HIP_3PIO4              2.356194490192345
#define HIP_2_OVER_PI          0.6366197723675814
#define HIP_PI                 3.141592653589793
#define HIP_PI_HI              3.141592653589793
#define HIP_PI_LO              1.2246467991473532e-16
#define HIP_SQRT_2PI           2.5066282746310007
#define HIP_SQRT_2PI_HI        2.5066282746310007
#define HIP_SQRT_2PI_LO        (-1.8328579980459167e-16)
#define HIP_SQRT_PIO2          1.2533141373155003
#define HIP_SQRT_PIO2_HI       1.2533141373155003
#define HIP_SQRT_PIO2_LO       (-9.164289990229583e-17)
#define HIP_SQRT_2OPI          0.7978845608028654
#define HIP_L2E                1.4426950408889634
#define HIP_L2E_HI             1.4426950408889634
#define HIP_L2E_LO             2.0355273740931033e-17
#define HIP_L2T                3.321928094887362
#define HIP_LG2                0.3010299956639812
#define HIP_LG2_HI             0.3010299956639812
#define HIP_LG2_LO             (-2.8037281277851704e-18)
#define HIP_LGE                0.4342944819032518
#define HIP_LGE_HI             0.4342944819032518
#define HIP_LGE_LO             1.098319650216765e-17
#define HIP_LN2                0.6931471805599453
#define HIP_LN2_HI             0.6931471805599453
#define HIP_LN2_LO             2.3190468138462996e-17
#define HIP_LNT                2.302585092994046
#define HIP_LNT_HI             2.302585092994046
#define HIP_LNT_LO             (-2.1707562233822494e-16)
#define HIP_LNPI               1.1447298858494002
#define HIP_LN2_X_1024         709.782712893384
#define HIP_LN2_X_1025         710.475860073944
#define HIP_LN2_X_1075         745.1332191019412
#define HIP_LG2_X_1024         308.25471555991675
#define HIP_LG2_X_1075         323.60724533877976
#define HIP_TWO_TO_23          8388608.0
#define HIP_TWO_TO_52          4503599627370496.0
#define HIP_TWO_TO_53          9007199254740992.0
#define HIP_TWO_TO_54          18014398509481984.0
#define HIP_TWO_TO_M54         5.551115123125783e-17
#define HIP_TWO_TO_M1022       2.2250738585072014e-308
#define HIP_TRIG_PLOSS         2147483648.0
/* 1.5 * 2^52: adding it rounds a double to an integer in the low mantissa bits */
#define HIP_DBL2INT_CVT        6755399441055744.0

#endif /* WEFT_HIP_MATH_CONSTANTS_H */
