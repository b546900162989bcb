// The vector-add program from the seed article (shared/seeds/001_*), unchanged.
#include <hip/hip_runtime.h>

__global__ void vectorAdd(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

int main() {
    const int n = 1 << 20;
    const int bytes = n * sizeof(float);
    float *h_a = (float*)malloc(bytes), *h_b = (float*)malloc(bytes), *h_c = (float*)malloc(bytes);
    float *d_a, *d_b, *d_c;

    hipMalloc(&d_a, bytes); hipMalloc(&d_b, bytes); hipMalloc(&d_c, bytes);
    hipMemcpy(d_a, h_a, bytes, hipMemcpyHostToDevice);
    hipMemcpy(d_b, h_b, bytes, hipMemcpyHostToDevice);

    int threads = 256, blocks = (n + threads - 1) / threads;
    hipLaunchKernelGGL(vectorAdd, dim3(blocks), dim3(threads), 0, 0, d_a, d_b, d_c, n);
    hipDeviceSynchronize();

    hipMemcpy(h_c, d_c, bytes, hipMemcpyDeviceToHost);
    hipFree(d_a); hipFree(d_b); hipFree(d_c);
    return 0;
}
