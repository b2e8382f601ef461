// The fused LM head + log-softmax + gather. For each scored position i with final hidden
// state h_i and target token t_i it computes log softmax(W h_i)[t_i] without materialising a
// logit row: the vocabulary is streamed once per group of TOKEN_GROUP tokens, and every warp
// keeps an online maximum and sum of exponentials per token.
//
// token_logprobs_partial: grid (groups, splits), block THREADS threads. Block (g, s) takes the
// tokens g*TOKEN_GROUP.. and the vocabulary rows of split s; each warp takes one row at a time,
// its lanes read the row coalesced, multiply it with the group's hidden states and reduce
// with shuffles. It writes one (max, sum) per token and split, and the target logit when the
// target row lies in the split.
//
// token_logprobs_combine: one thread per token merges its splits' (max, sum) and returns
// target_logit - (max + log sum).
//
// The CPU twin is kernels/src/cpu.rs, organised the same way.

#define TOKEN_GROUP 8
#define THREADS 256
#define WARPS (THREADS / 32)
// NVRTC compiles without the C headers, so negative infinity is spelled by its bits.
#define NEG_INF __int_as_float(0xff800000)

struct LogSumExp {
    float max;
    float sum;
};

__device__ __forceinline__ LogSumExp lse_merge(LogSumExp a, LogSumExp b) {
    if (b.sum == 0.0f) return a;
    if (a.sum == 0.0f) return b;
    float m = fmaxf(a.max, b.max);
    LogSumExp out;
    out.max = m;
    out.sum = a.sum * expf(a.max - m) + b.sum * expf(b.max - m);
    return out;
}

__device__ __forceinline__ void lse_push(LogSumExp *acc, float x) {
    if (x > acc->max) {
        acc->sum = acc->sum * expf(acc->max - x) + 1.0f;
        acc->max = x;
    } else {
        acc->sum += expf(x - acc->max);
    }
}

extern "C" __global__ void token_logprobs_partial(
    const float *__restrict__ hidden,   // [tokens, features]
    const float *__restrict__ weight,   // [vocab, features]
    const unsigned int *__restrict__ targets,  // [tokens]
    unsigned int tokens,
    unsigned int features,
    unsigned int vocab,
    unsigned int split_rows,
    float *__restrict__ partial_max,    // [splits, tokens]
    float *__restrict__ partial_sum,    // [splits, tokens]
    float *__restrict__ target_logits   // [tokens]
) {
    const unsigned int group = blockIdx.x;
    const unsigned int split = blockIdx.y;
    const unsigned int first = group * TOKEN_GROUP;
    const unsigned int members = min(TOKEN_GROUP, tokens - first);
    const unsigned int lane = threadIdx.x % 32;
    const unsigned int warp = threadIdx.x / 32;
    const unsigned int row_begin = split * split_rows;
    const unsigned int row_end = min(vocab, row_begin + split_rows);

    LogSumExp acc[TOKEN_GROUP];
    for (int m = 0; m < TOKEN_GROUP; ++m) {
        acc[m].max = NEG_INF;
        acc[m].sum = 0.0f;
    }

    for (unsigned int row = row_begin + warp; row < row_end; row += WARPS) {
        const float *w = weight + (size_t)row * features;
        float dots[TOKEN_GROUP];
        for (int m = 0; m < TOKEN_GROUP; ++m) dots[m] = 0.0f;
        for (unsigned int k = lane; k < features; k += 32) {
            float wk = w[k];
            for (unsigned int m = 0; m < members; ++m) {
                dots[m] += wk * hidden[(size_t)(first + m) * features + k];
            }
        }
        for (unsigned int m = 0; m < members; ++m) {
            float x = dots[m];
            for (int offset = 16; offset > 0; offset /= 2) x += __shfl_xor_sync(0xffffffffu, x, offset);
            if (lane == 0) {
                lse_push(&acc[m], x);
                if (targets[first + m] == row) target_logits[first + m] = x;
            }
        }
    }

    // Merge the warps' accumulators (held by their lane 0) through shared memory.
    __shared__ LogSumExp warp_acc[WARPS][TOKEN_GROUP];
    if (lane == 0) {
        for (int m = 0; m < TOKEN_GROUP; ++m) warp_acc[warp][m] = acc[m];
    }
    __syncthreads();
    if (threadIdx.x < members) {
        const unsigned int m = threadIdx.x;
        LogSumExp total = warp_acc[0][m];
        for (int w = 1; w < WARPS; ++w) total = lse_merge(total, warp_acc[w][m]);
        partial_max[(size_t)split * tokens + first + m] = total.max;
        partial_sum[(size_t)split * tokens + first + m] = total.sum;
    }
}

extern "C" __global__ void token_logprobs_combine(
    const float *__restrict__ partial_max,   // [splits, tokens]
    const float *__restrict__ partial_sum,   // [splits, tokens]
    const float *__restrict__ target_logits, // [tokens]
    unsigned int tokens,
    unsigned int splits,
    float *__restrict__ logprobs             // [tokens]
) {
    const unsigned int token = blockIdx.x * blockDim.x + threadIdx.x;
    if (token >= tokens) return;
    LogSumExp total;
    total.max = NEG_INF;
    total.sum = 0.0f;
    for (unsigned int s = 0; s < splits; ++s) {
        LogSumExp part;
        part.max = partial_max[(size_t)s * tokens + token];
        part.sum = partial_sum[(size_t)s * tokens + token];
        total = lse_merge(total, part);
    }
    logprobs[token] = target_logits[token] - (total.max + logf(total.sum));
}
