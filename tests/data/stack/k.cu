// The project's own tiny CUDA source for the binary-scanner fixtures
// (make-fixtures.sh): one kernel and one device function another unit calls.
__device__ float twice(float v) { return 2.0f * v; }

__global__ void scale(float *x, float a, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] = a * x[i];
}
