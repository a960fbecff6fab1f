/* One OpenCL built-in per kernel, so that tests/corpus.rs checks each against its own
 * ULP bound (19_libm.cl sums them in one expression). Built with the ROCm device
 * libraries by build.sh. */
#define F32_1(name, expr)                                                         \
  kernel void name(global const float *x, global float *y) {                      \
    size_t i = get_global_id(0);                                                   \
    float v = x[i];                                                                \
    y[i] = expr;                                                                   \
  }
#define F64_1(name, expr)                                                         \
  kernel void name(global const double *x, global double *y) {                    \
    size_t i = get_global_id(0);                                                   \
    double v = x[i];                                                               \
    y[i] = expr;                                                                   \
  }
F32_1(f32_sin, sin(v))
F32_1(f32_cos, cos(v))
F32_1(f32_exp, exp(v))
F32_1(f32_log1p, log1p(v))
F32_1(f32_native_rsqrt, native_rsqrt(v))
F64_1(f64_tanh, tanh(v))
F64_1(f64_cbrt, cbrt(v))
F64_1(f64_erf, erf(v))
kernel void f32_pow(global const float *x, global const float *e, global float *y) {
  size_t i = get_global_id(0);
  y[i] = pow(x[i], e[i]);
}
