__kernel void add(__global const int *a, __global const int *b, __global int *c, float s, __global float *f)
{
    int i = __builtin_amdgcn_workitem_id_x();
    int sum = a[i] + b[i];
    unsigned twice = (unsigned)sum * 2u;
    float scaled = (float)sum * s;
    c[i] = sum + (int)twice;
    f[i] = scaled;
}
