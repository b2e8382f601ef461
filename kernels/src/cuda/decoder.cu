// The element-wise and row-wise steps of a decoder layer (Qwen2, Llama) on the device; the
// matrix products run in cuBLAS. Every matrix is row-major f32. Each kernel has a CPU twin in
// `kernels/src/layers.rs` that defines what it computes.

#define THREADS 256
// NVRTC compiles without the C headers, so negative infinity is spelled by its bits.
#define NEG_INF __int_as_float(0xff800000)

// Block-wide reduction of one value per thread; every thread gets the result.
__device__ float block_sum(float value, float* shared) {
    shared[threadIdx.x] = value;
    __syncthreads();
    for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (threadIdx.x < stride) shared[threadIdx.x] += shared[threadIdx.x + stride];
        __syncthreads();
    }
    float total = shared[0];
    __syncthreads();
    return total;
}

__device__ float block_max(float value, float* shared) {
    shared[threadIdx.x] = value;
    __syncthreads();
    for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (threadIdx.x < stride) shared[threadIdx.x] = fmaxf(shared[threadIdx.x], shared[threadIdx.x + stride]);
        __syncthreads();
    }
    float total = shared[0];
    __syncthreads();
    return total;
}

// out[r, i] = x[r, i] / sqrt(mean_i(x[r, i]²) + eps) · weight[i]. One block per row.
extern "C" __global__ void rms_norm(const float* x, const float* weight, float* out, unsigned int cols, float eps) {
    __shared__ float shared[THREADS];
    const float* row = x + (size_t)blockIdx.x * cols;
    float* dst = out + (size_t)blockIdx.x * cols;
    float squares = 0.0f;
    for (unsigned int i = threadIdx.x; i < cols; i += blockDim.x) squares += row[i] * row[i];
    float scale = 1.0f / sqrtf(block_sum(squares, shared) / (float)cols + eps);
    for (unsigned int i = threadIdx.x; i < cols; i += blockDim.x) dst[i] = row[i] * scale * weight[i];
}

// x[r, i] += bias[i] for a rows × cols matrix.
extern "C" __global__ void add_bias(float* x, const float* bias, unsigned int rows, unsigned int cols) {
    size_t total = (size_t)rows * cols;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += (size_t)gridDim.x * blockDim.x)
        x[i] += bias[i % cols];
}

// x[i] += y[i].
extern "C" __global__ void add_in_place(float* x, const float* y, unsigned int count) {
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += (size_t)gridDim.x * blockDim.x)
        x[i] += y[i];
}

// gate[i] = silu(gate[i]) · up[i], silu(g) = g / (1 + e^−g).
extern "C" __global__ void silu_mul(float* gate, const float* up, unsigned int count) {
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += (size_t)gridDim.x * blockDim.x) {
        float g = gate[i];
        gate[i] = g / (1.0f + expf(-g)) * up[i];
    }
}

// Rotary embedding, in place, on x = rows × heads × (2·half): for each head, the first half
// a and the second half b of its vector become a·cos − b·sin and b·cos + a·sin, with cos and sin
// (rows × half) of the row's position.
extern "C" __global__ void rope(float* x, const float* cos_table, const float* sin_table, unsigned int rows,
                                unsigned int heads, unsigned int half) {
    size_t total = (size_t)rows * heads * half;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += (size_t)gridDim.x * blockDim.x) {
        size_t j = i % half;
        size_t vector = i / half;
        size_t row = vector / heads;
        float* base = x + vector * 2 * half;
        float a = base[j];
        float b = base[j + half];
        float c = cos_table[row * half + j];
        float s = sin_table[row * half + j];
        base[j] = a * c - b * s;
        base[j + half] = b * c + a * s;
    }
}

// Causal softmax over the rows of n × n score matrices laid end to end (one block per row): row q keeps
// columns 0..=q, which become their softmax, and columns past q become 0.
extern "C" __global__ void causal_softmax(float* scores, unsigned int n) {
    __shared__ float shared[THREADS];
    unsigned int query = blockIdx.x % n;
    float* row = scores + (size_t)blockIdx.x * n;
    float highest = NEG_INF;
    for (unsigned int k = threadIdx.x; k <= query; k += blockDim.x) highest = fmaxf(highest, row[k]);
    highest = block_max(highest, shared);
    float sum = 0.0f;
    for (unsigned int k = threadIdx.x; k <= query; k += blockDim.x) sum += expf(row[k] - highest);
    sum = block_sum(sum, shared);
    for (unsigned int k = threadIdx.x; k < n; k += blockDim.x) row[k] = k <= query ? expf(row[k] - highest) / sum : 0.0f;
}

// out[r, :] = x[rows[r], :] for `count` rows of `cols` values.
extern "C" __global__ void gather_rows(const float* x, const unsigned int* rows, float* out, unsigned int count,
                                       unsigned int cols) {
    size_t total = (size_t)count * cols;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += (size_t)gridDim.x * blockDim.x)
        out[i] = x[(size_t)rows[i / cols] * cols + i % cols];
}
