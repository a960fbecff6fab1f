// C++ names of many shapes (anonymous and inline namespaces, lambdas, operators,
// member pointers, arrays, vector and extended types, variadic templates) for the
// --demangle tests: build.sh compiles it and records llvm-cxxfilt-22 on its symbols.
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
typedef float float4_t __attribute__((ext_vector_type(4)));
namespace { template <typename T> __global__ void anon_kernel(T* p) { p[0] = T(); } }
namespace { template __global__ void anon_kernel<int>(int*); }
namespace lib { inline namespace v2 {
struct Functor { __device__ __attribute__((noinline)) int operator()(int x) const { return x + 1; } };
template <typename F, typename... Args> __global__ void apply(F f, int* out, Args... args) { out[0] = f(args...); }
template <int N> struct Tag {};
template <typename T, int N> __global__ void with_array(T (*arr)[N], Tag<N>) { (*arr)[0] = T(); }
struct S { int m; int g(int) const; };
template <typename T> __global__ void member_ptr(int S::*pm, int (S::*pf)(int) const, T* s) { s->*pm = 1; }
template <typename T> __global__ void vec(float4_t* v, T t, _Float16 h, __int128 q, unsigned char c, bool b, double d, long double ld, char16_t c16) { v[0] = float4_t(); }
template <typename T> __global__ void fnptr(T (*f)(T, const T&), volatile T* p, T&& r) {}
}}
template __global__ void lib::apply<lib::Functor, int>(lib::Functor, int*, int);

template __global__ void lib::with_array<float, 8>(float (*)[8], lib::Tag<8>);
template __global__ void lib::member_ptr<lib::S>(int lib::S::*, int (lib::S::*)(int) const, lib::S*);
template __global__ void lib::vec<unsigned long long>(float4_t*, unsigned long long, _Float16, __int128, unsigned char, bool, double, long double, char16_t);
template __global__ void lib::fnptr<int>(int (*)(int, const int&), volatile int*, int&&);
template <typename F> __device__ __attribute__((noinline)) void takes_lambda_d(F f) { f(1); }
template <typename F> __global__ void takes_lambda(F f) { f(1); }
__global__ void lambda_host(int* p) {
  auto k = [](int y) __attribute__((noinline)) { return y; }; takes_lambda_d(k);
  auto l = [p](int x) { p[x] = x; };
  l(1);
}

void launch() { auto l = [] __device__ (int x) { return x; }; (void)l; }
struct Outer { struct { int a; } first; struct { float b; } second; };
template <typename T> __device__ __attribute__((noinline)) void use_type(T t) { (void)t; }
__global__ void unnamed_types(int* p) {
  Outer o{};
  use_type(o.first);
  use_type(o.second);
  auto a = [p](int x) __attribute__((noinline)) { p[x] = x; };
  auto b = [p]() __attribute__((noinline)) { p[0] = 1; };
  takes_lambda_d(a);
  takes_lambda_d([b](int) __attribute__((noinline)) { b(); });
}
namespace std { template <typename T> struct allocator {}; template <typename T, typename A = allocator<T>> struct vector {}; }
template <char C, unsigned U, long L, int N, unsigned long long Q, bool B> struct Lits {};
template <typename T, typename L> __global__ void literals(T*, L, const volatile int* __restrict__, std::vector<T>) {}
template __global__ void literals<float, Lits<'a', 5u, -3l, -1, 7ull, false>>(float*, Lits<'a', 5u, -3l, -1, 7ull, false>, const volatile int*, std::vector<float>);
struct Op { __device__ Op operator+(const Op&) const; __device__ bool operator<(const Op&) const; __device__ operator int() const; };
template <typename T> __global__ void ops(T a, T b, int* r) { r[0] = (a < b) ? int(a + b) : 0; }
template __global__ void ops<Op>(Op, Op, int*);
__device__ __attribute__((noinline)) Op Op::operator+(const Op&) const { return *this; }
__device__ __attribute__((noinline)) bool Op::operator<(const Op&) const { return false; }
__device__ __attribute__((noinline)) Op::operator int() const { return 1; }
