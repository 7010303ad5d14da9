// With -rdc: a kernel that calls a device function of k.cu across units.
__device__ float twice(float v);

__global__ void dbl(float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] = twice(x[i]);
}
