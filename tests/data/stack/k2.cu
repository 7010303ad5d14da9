// A second translation unit, so that a library holds several fatbins.
__device__ float twice(float v);

__global__ void shift(float *x, float b, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] = x[i] + b;
}
