//! Library-shaped code objects for `cargo xtask bench`: what ROCm's libraries ship
//! rather than what the corpus builds.
//!
//! A library object holds hundreds of kernels, template instantiations with long
//! mangled names and long argument lists (so a metadata note of hundreds of KB), ten
//! symbols per kernel (the kernel, its descriptor and the resource-usage symbols clang
//! adds), tables of constants in `.rodata` and tables of pointers to them (dynamic
//! relocations). The kernel bodies are the corpus's kernels (`../shared/corpus/cl`:
//! vadd, reduce_lds, atomics/histogram, fp64 axpy, matmul_tiled, scan, intops,
//! control_flow) rewritten as HIP templates; each object instantiates a different
//! pseudo-random selection of them, so no two objects are alike. They are written as
//! HIP device code (`clang-22 -x hip --cuda-device-only -nogpuinc -nogpulib`, a linked
//! `.co` per processor) into `target/libshape/`, and rebuilt only when missing or when
//! [`VERSION`] changes.

use anyhow::{bail, Context, Result};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Bump to rebuild the objects after a change of the generator.
const VERSION: &str = "libshape 1";

/// One object to build.
pub struct Spec {
    /// File stem.
    pub name: String,
    /// Processor (`--offload-arch`).
    pub mcpu: &'static str,
    /// Seeds the selection of instantiations and the namespace names.
    pub seed: u64,
    /// Kernels to instantiate.
    pub kernels: usize,
    /// Floats in each of the two constant tables (`.rodata`).
    pub table: usize,
    /// Pointers in the table of pointers (each a dynamic relocation).
    pub pointers: usize,
}

/// The large objects `bench` disassembles: two gfx90a ones near the sizes of the
/// issue's library objects (1.7 and 4.9 MB), one gfx942 and one gfx1100.
pub fn big() -> Vec<Spec> {
    vec![
        spec("big-gfx90a-a", "gfx90a", 101, 250, 32768, 2048),
        spec("big-gfx90a-b", "gfx90a", 102, 700, 65536, 4096),
        spec("big-gfx942", "gfx942", 103, 400, 32768, 2048),
        spec("big-gfx1100", "gfx1100", 104, 300, 16384, 1024),
    ]
}

/// The 40 smaller objects `bench` reads the metadata of (0.2-1 MB each), over four
/// processors as a library's per-processor builds are.
pub fn many() -> Vec<Spec> {
    let mcpus = ["gfx90a", "gfx942", "gfx908", "gfx1100"];
    (0..40u64)
        .map(|i| {
            let mcpu = mcpus[i as usize % mcpus.len()];
            let kernels = 40 + (i as usize * 37) % 120;
            spec(
                &format!("lib{i:02}-{mcpu}"),
                mcpu,
                i + 1,
                kernels,
                2048 << (i % 4),
                256 + 64 * (i as usize % 8),
            )
        })
        .collect()
}

fn spec(
    name: &str,
    mcpu: &'static str,
    seed: u64,
    kernels: usize,
    table: usize,
    pointers: usize,
) -> Spec {
    Spec {
        name: name.to_string(),
        mcpu,
        seed,
        kernels,
        table,
        pointers,
    }
}

/// Builds (when missing or stale) the objects of `specs` under `dir`; returns their
/// paths in the order of `specs`.
pub fn build(dir: &Path, specs: &[Spec]) -> Result<Vec<PathBuf>> {
    if !crate::corpus::have_tool("clang-22") {
        bail!("clang-22 not found: install clang-22 and lld-22");
    }
    std::fs::create_dir_all(dir)?;
    let stamp = dir.join("VERSION");
    if std::fs::read_to_string(&stamp).ok().as_deref() != Some(VERSION) {
        for e in std::fs::read_dir(dir)? {
            let p = e?.path();
            if p.extension().is_some_and(|x| x == "co" || x == "hip") {
                std::fs::remove_file(&p)?;
            }
        }
        std::fs::write(&stamp, VERSION)?;
    }
    let mut out = Vec::new();
    for s in specs {
        let co = dir.join(format!("{}.co", s.name));
        if !co.exists() {
            let src = dir.join(format!("{}.hip", s.name));
            std::fs::write(&src, source(s))?;
            eprintln!(
                "building {} ({} kernels, {})",
                co.display(),
                s.kernels,
                s.mcpu
            );
            let tmp = dir.join(format!("{}.co.tmp", s.name));
            let status = Command::new("clang-22")
                .args(["-x", "hip", "--cuda-device-only", "-nogpuinc", "-nogpulib"])
                .arg(format!("--offload-arch={}", s.mcpu))
                .args([
                    "-O3",
                    "-fconstexpr-steps=100000000",
                    "--no-gpu-bundle-output",
                    "-c",
                ])
                .arg(&src)
                .arg("-o")
                .arg(&tmp)
                .status()
                .context("clang-22")?;
            if !status.success() {
                bail!("clang-22 failed on {}: {status}", src.display());
            }
            std::fs::rename(&tmp, &co)?;
        }
        out.push(co);
    }
    Ok(out)
}

/// A small deterministic generator (64-bit LCG, high bits).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }

    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[self.next() as usize % from.len()]
    }
}

const PRELUDE: &str = r#"// generated by `cargo xtask bench` (xtask/src/libshape.rs): a library-shaped object
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __shared__ __attribute__((shared))
typedef unsigned int uint;
#define LID0() ((uint)__builtin_amdgcn_workitem_id_x())
#define LID1() ((uint)__builtin_amdgcn_workitem_id_y())
#define GRP0() ((uint)__builtin_amdgcn_workgroup_id_x())
#define GRP1() ((uint)__builtin_amdgcn_workgroup_id_y())
#define LSZ0() ((uint)__builtin_amdgcn_workgroup_size_x())
#define GID0() (GRP0() * LSZ0() + LID0())
#define BARRIER()                                            \
  do {                                                       \
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");   \
    __builtin_amdgcn_s_barrier();                            \
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");   \
  } while (0)
"#;

/// The kernel templates, in namespace `NS::detail` (bodies after the corpus kernels).
const TEMPLATES: &str = r#"
struct GemmDescriptor { int m, n, k; float alpha, beta; int lda, ldb, ldc; long stride_a, stride_b, stride_c; int batch_count; };
struct Layout { int rows, cols, ld; bool transposed; };
template <typename T> struct Plus { __device__ T operator()(T a, T b) const { return a + b; } };
template <typename T> struct Multiplies { __device__ T operator()(T a, T b) const { return a * b; } };
template <typename T> struct Maximum { __device__ T operator()(T a, T b) const { return a > b ? a : b; } };
template <typename T> struct Minimum { __device__ T operator()(T a, T b) const { return a < b ? a : b; } };
template <typename T, int K> struct Scale { __device__ T operator()(T a, T b) const { return a * (T)K + b; } };
template <typename F, typename G> struct Compose { F f; G g; template <typename T> __device__ T operator()(T a, T b) const { return g(f(a, b), b); } };

namespace detail {
__attribute__((noinline)) __device__ float lookup(uint i, uint row) { return coefficient_rows[row % NPTR][i & (NTAB - 1)] + coefficients_b.v[(i * 7) & (NTAB - 1)]; }

template <typename T, typename U, int BLOCK, int UNROLL, typename Op>
__global__ void __attribute__((amdgpu_flat_work_group_size(1, BLOCK)))
elementwise_kernel(T *__restrict__ out, const T *__restrict__ a, const U *__restrict__ b, const T *c,
                   T alpha, T beta, uint n, uint lda, uint ldb, uint ldc, int batch_count,
                   long stride_a, long stride_b, long stride_c, Op op, GemmDescriptor d,
                   const int *__restrict__ permutation, Layout la, Layout lb) {
  uint i = GID0() * UNROLL;
#pragma unroll
  for (int u = 0; u < UNROLL; ++u) {
    uint j = i + u;
    if (j < n) {
      T x = op(a[j * lda + batch_count * stride_a], (T)b[permutation ? permutation[j] : j * ldb]) * alpha;
      out[j * ldc + la.ld * stride_c] = x + beta * c[j + lb.ld] + (T)coefficient_rows[j % NPTR][j & (NTAB - 1)];
    }
  }
}

template <typename T, int BLOCK, typename Op>
__global__ void __attribute__((amdgpu_flat_work_group_size(1, BLOCK)))
reduce_lds_kernel(const T *__restrict__ in, T *__restrict__ partial, uint n, long stride, int batch_count,
                  T init, Op op, GemmDescriptor d, const T *__restrict__ bias) {
  __shared__ T tmp[BLOCK];
  uint l = LID0();
  T acc = init;
  for (uint i = GID0(); i < n; i += BLOCK * 64) acc = op(acc, in[i + batch_count * stride]);
  tmp[l] = acc;
  BARRIER();
  for (uint s = BLOCK / 2; s > 0; s >>= 1) { if (l < s) tmp[l] = op(tmp[l], tmp[l + s]); BARRIER(); }
  if (l == 0) partial[GRP0()] = tmp[0] * (T)d.alpha + (bias ? bias[GRP0()] : (T)0);
}

template <typename T, int BINS, int BLOCK>
__global__ void __attribute__((amdgpu_flat_work_group_size(1, BLOCK)))
histogram_atomics_kernel(const T *__restrict__ data, uint *__restrict__ bins, uint n, T lo, T hi,
                         uint *__restrict__ overflow, int batch_count, long stride) {
  __shared__ uint local_bins[BINS];
  for (uint b = LID0(); b < BINS; b += BLOCK) local_bins[b] = 0;
  BARRIER();
  for (uint i = GID0(); i < n; i += BLOCK * 64) {
    T v = data[i + batch_count * stride];
    if (v < lo || v >= hi) { __atomic_fetch_add(overflow, 1u, __ATOMIC_RELAXED); continue; }
    uint b = (uint)((v - lo) * (T)BINS / (hi - lo));
    __atomic_fetch_add(&local_bins[b < BINS ? b : BINS - 1], 1u, __ATOMIC_RELAXED);
  }
  BARRIER();
  for (uint b = LID0(); b < BINS; b += BLOCK) __atomic_fetch_add(&bins[b], local_bins[b], __ATOMIC_RELAXED);
}

template <typename T, int INCX, int INCY>
__global__ void axpy_batched_kernel(int n, T alpha, const T *const *__restrict__ x, long offset_x, long stride_x,
                                    T *const *__restrict__ y, long offset_y, long stride_y, int batch_count,
                                    const T *__restrict__ scale, double tolerance) {
  int b = GRP1();
  if (b >= batch_count) return;
  int i = GID0();
  if (i < n) {
    T s = scale ? scale[b] : (T)1;
    T v = y[b][offset_y + i * INCY + b * stride_y];
    v = alpha * x[b][offset_x + i * INCX + b * stride_x] * s + v;
    y[b][offset_y + i * INCY + b * stride_y] = (double)v > tolerance ? v : (T)lookup(i, b);
  }
}

template <typename T, int TILE, bool TRANS_A, bool TRANS_B>
__global__ void __attribute__((amdgpu_flat_work_group_size(1, TILE * TILE)))
gemm_tiled_kernel(const T *__restrict__ A, const T *__restrict__ B, T *__restrict__ C, GemmDescriptor d,
                  Layout la, Layout lb, Layout lc, const T *__restrict__ alpha_device, const T *__restrict__ beta_device) {
  __shared__ T As[TILE][TILE];
  __shared__ T Bs[TILE][TILE + 1];
  uint tx = LID0(), ty = LID1();
  uint row = GRP1() * TILE + ty, col = GRP0() * TILE + tx;
  T acc = 0;
  for (int k0 = 0; k0 < d.k; k0 += TILE) {
    uint ka = k0 + tx, kb = k0 + ty;
    As[ty][tx] = (row < (uint)d.m && ka < (uint)d.k) ? A[TRANS_A ? ka * d.lda + row : row * d.lda + ka] : (T)0;
    Bs[ty][tx] = (col < (uint)d.n && kb < (uint)d.k) ? B[TRANS_B ? col * d.ldb + kb : kb * d.ldb + col] : (T)0;
    BARRIER();
#pragma unroll
    for (int k = 0; k < TILE; ++k) acc += As[ty][k] * Bs[k][tx];
    BARRIER();
  }
  T alpha = alpha_device ? *alpha_device : (T)d.alpha, beta = beta_device ? *beta_device : (T)d.beta;
  if (row < (uint)d.m && col < (uint)d.n) C[row * d.ldc + col] = alpha * acc + beta * C[row * d.ldc + col];
}

template <typename T, int BLOCK, typename Op>
__global__ void __attribute__((amdgpu_flat_work_group_size(1, BLOCK)))
inclusive_scan_kernel(const T *__restrict__ in, T *__restrict__ out, T *__restrict__ block_sums, uint n, Op op, T identity) {
  __shared__ T s[BLOCK];
  uint l = LID0(), i = GID0();
  s[l] = i < n ? in[i] : identity;
  BARRIER();
  for (uint off = 1; off < BLOCK; off <<= 1) {
    T t = l >= off ? s[l - off] : identity;
    BARRIER();
    s[l] = op(s[l], t);
    BARRIER();
  }
  if (i < n) out[i] = s[l];
  if (l == BLOCK - 1 && block_sums) block_sums[GRP0()] = s[l];
}

template <typename T, int SHIFT, int CASES>
__global__ void intops_control_flow_kernel(T *__restrict__ out, const T *__restrict__ a, const T *__restrict__ b,
                                           uint n, int mode, T mask, long stride, const uint *__restrict__ selectors) {
  uint i = GID0();
  if (i >= n) return;
  T x = a[i], y = b[i + stride];
  T r;
  switch ((selectors ? selectors[i] : (uint)mode) % CASES) {
  case 0: r = (x << SHIFT) ^ (y >> (SHIFT / 2)); break;
  case 1: r = (T)__builtin_popcountll((unsigned long long)(x & mask)) + y; break;
  case 2: r = (T)__builtin_clzll((unsigned long long)(x | 1)) * y; break;
  case 3: r = x / (y | 1) + x % (y | 1); break;
  case 4: r = (x & y) | (~x & mask); break;
  default: r = (T)lookup(i, (uint)mode) + x; break;
  }
  out[i] = r;
}
} // namespace detail
"#;

/// The source of one object: its tables, the templates, and `spec.kernels` explicit
/// instantiations chosen by `spec.seed`.
pub fn source(spec: &Spec) -> String {
    let mut rng = Rng(spec.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let ntab = spec.table.next_power_of_two();
    let nptr = spec.pointers.max(1);
    let lib = ["blas", "sparse", "fft", "rand", "prim", "solver", "miopen"][spec.seed as usize % 7];
    let ns = format!("roc{lib}_gen{}::internal_v{}", spec.seed, 2 + spec.seed % 3);
    let mut s = String::from(PRELUDE);
    let _ = writeln!(s, "#define NTAB {ntab}\n#define NPTR {nptr}");
    let _ = writeln!(s, "namespace {} {{", ns.replace("::", " { namespace "));
    let _ = writeln!(
        s,
        "struct Table {{ float v[NTAB]; constexpr Table(float f) : v() {{ for (int i = 0; i < NTAB; ++i) v[i] = float(i % 977) * f + float(i / 977); }} }};"
    );
    let _ = writeln!(s, "__device__ constexpr Table coefficients_a{{0.25f}};");
    let _ = writeln!(s, "__device__ constexpr Table coefficients_b{{0.125f}};");
    let _ = write!(
        s,
        "__device__ const float *const coefficient_rows[NPTR] = {{"
    );
    for i in 0..nptr {
        let table = if i % 2 == 0 { "a" } else { "b" };
        let _ = write!(s, "&coefficients_{table}.v[{}],", (i * 61) % ntab);
        if i % 8 == 7 {
            s.push('\n');
        }
    }
    s.push_str("};\n");
    s.push_str(TEMPLATES);
    let floats = ["float", "double"];
    let numbers = ["float", "double", "int", "uint", "long"];
    let ints = ["int", "uint", "long", "unsigned long", "short"];
    let mut seen = std::collections::HashSet::new();
    let mut made = 0;
    let mut tries = 0;
    while made < spec.kernels && tries < spec.kernels * 50 {
        tries += 1;
        let inst = match rng.next() % 7 {
            0 => {
                let t = rng.pick(&floats);
                let u = rng.pick(&numbers);
                let block = rng.pick(&["64", "128", "256", "512", "1024"]);
                let unroll = rng.pick(&["1", "2", "4", "8"]);
                let op = op(&mut rng, t);
                format!(
                    "template __global__ void detail::elementwise_kernel<{t}, {u}, {block}, {unroll}, {op}>({t} *, const {t} *, const {u} *, const {t} *, {t}, {t}, uint, uint, uint, uint, int, long, long, long, {op}, GemmDescriptor, const int *, Layout, Layout);"
                )
            }
            1 => {
                let t = rng.pick(&numbers);
                let block = rng.pick(&["64", "128", "256", "512", "1024"]);
                let op = op(&mut rng, t);
                format!(
                    "template __global__ void detail::reduce_lds_kernel<{t}, {block}, {op}>(const {t} *, {t} *, uint, long, int, {t}, {op}, GemmDescriptor, const {t} *);"
                )
            }
            2 => {
                let t = rng.pick(&numbers);
                let bins = rng.pick(&["16", "64", "256", "1024"]);
                let block = rng.pick(&["64", "128", "256"]);
                format!(
                    "template __global__ void detail::histogram_atomics_kernel<{t}, {bins}, {block}>(const {t} *, uint *, uint, {t}, {t}, uint *, int, long);"
                )
            }
            3 => {
                let t = rng.pick(&floats);
                let incx = rng.pick(&["1", "2", "-1", "4"]);
                let incy = rng.pick(&["1", "3", "-1"]);
                format!(
                    "template __global__ void detail::axpy_batched_kernel<{t}, {incx}, {incy}>(int, {t}, const {t} *const *, long, long, {t} *const *, long, long, int, const {t} *, double);"
                )
            }
            4 => {
                let t = rng.pick(&floats);
                let tile = rng.pick(&["8", "16", "32"]);
                let ta = rng.pick(&["true", "false"]);
                let tb = rng.pick(&["true", "false"]);
                format!(
                    "template __global__ void detail::gemm_tiled_kernel<{t}, {tile}, {ta}, {tb}>(const {t} *, const {t} *, {t} *, GemmDescriptor, Layout, Layout, Layout, const {t} *, const {t} *);"
                )
            }
            5 => {
                let t = rng.pick(&numbers);
                let block = rng.pick(&["64", "128", "256", "512"]);
                let op = op(&mut rng, t);
                format!(
                    "template __global__ void detail::inclusive_scan_kernel<{t}, {block}, {op}>(const {t} *, {t} *, {t} *, uint, {op}, {t});"
                )
            }
            _ => {
                let t = rng.pick(&ints);
                let shift = rng.pick(&["1", "3", "5", "7"]);
                let cases = rng.pick(&["3", "5", "6", "8"]);
                format!(
                    "template __global__ void detail::intops_control_flow_kernel<{t}, {shift}, {cases}>({t} *, const {t} *, const {t} *, uint, int, {t}, long, const uint *);"
                )
            }
        };
        if seen.insert(inst.clone()) {
            s.push_str(&inst);
            s.push('\n');
            made += 1;
        }
    }
    let _ = writeln!(s, "{}", "}".repeat(ns.split("::").count()));
    s
}

/// A functor type over `t`.
fn op(rng: &mut Rng, t: &str) -> String {
    let simple = ["Plus", "Multiplies", "Maximum", "Minimum"];
    match rng.next() % 6 {
        0..=2 => format!("{}<{t}>", rng.pick(&simple)),
        3 => format!("Scale<{t}, {}>", rng.next() % 16 + 2),
        _ => format!(
            "Compose<{}<{t}>, Scale<{t}, {}>>",
            rng.pick(&simple),
            rng.next() % 8 + 2
        ),
    }
}
