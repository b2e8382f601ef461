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
// token_logprobs_combine: one block per token merges its splits' (max, sum) and returns
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
    const int members = (int)min((unsigned int)TOKEN_GROUP, tokens - first);
    const unsigned int lane = threadIdx.x % 32;
    const unsigned int warp = threadIdx.x / 32;
    const unsigned int row_begin = split * split_rows;
    const unsigned int row_end = min(vocab, row_begin + split_rows);

    LogSumExp acc[TOKEN_GROUP];
#pragma unroll
    for (int m = 0; m < TOKEN_GROUP; ++m) {
        acc[m].max = NEG_INF;
        acc[m].sum = 0.0f;
    }

    // Rows whose length is a multiple of 4 are read as float4 (16-byte loads; the rows then
    // start on 16-byte boundaries). The loops over the group's members are unrolled with a
    // guard, so the dot products stay in registers.
    const bool vector = (features & 3u) == 0;
    for (unsigned int row = row_begin + warp; row < row_end; row += WARPS) {
        const float *w = weight + (size_t)row * features;
        float dots[TOKEN_GROUP];
#pragma unroll
        for (int m = 0; m < TOKEN_GROUP; ++m) dots[m] = 0.0f;
        if (vector) {
            const float4 *w4 = (const float4 *)w;
            const float4 *h4 = (const float4 *)hidden;
            const unsigned int quads = features / 4;
            for (unsigned int k = lane; k < quads; k += 32) {
                const float4 wk = w4[k];
#pragma unroll
                for (int m = 0; m < TOKEN_GROUP; ++m) {
                    if (m < members) {
                        const float4 hk = h4[(size_t)(first + m) * quads + k];
                        dots[m] += wk.x * hk.x + wk.y * hk.y + wk.z * hk.z + wk.w * hk.w;
                    }
                }
            }
        } else {
            for (unsigned int k = lane; k < features; k += 32) {
                const float wk = w[k];
#pragma unroll
                for (int m = 0; m < TOKEN_GROUP; ++m) {
                    if (m < members) dots[m] += wk * hidden[(size_t)(first + m) * features + k];
                }
            }
        }
#pragma unroll
        for (int m = 0; m < TOKEN_GROUP; ++m) {
            if (m < members) {
                float x = dots[m];
                for (int offset = 16; offset > 0; offset /= 2) x += __shfl_xor_sync(0xffffffffu, x, offset);
                if (lane == 0) {
                    lse_push(&acc[m], x);
                    if (targets[first + m] == row) target_logits[first + m] = x;
                }
            }
        }
    }

    // Merge the warps' accumulators (held by their lane 0) through shared memory.
    __shared__ LogSumExp warp_acc[WARPS][TOKEN_GROUP];
    if (lane == 0) {
        for (int m = 0; m < TOKEN_GROUP; ++m) warp_acc[warp][m] = acc[m];
    }
    __syncthreads();
    if ((int)threadIdx.x < members) {
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
    // One block per token: its threads take the splits in turn, then merge through shuffles and
    // shared memory (a token's thousands of splits would be a long serial chain for one thread).
    const unsigned int token = blockIdx.x;
    const unsigned int lane = threadIdx.x % 32;
    const unsigned int warp = threadIdx.x / 32;
    LogSumExp total;
    total.max = NEG_INF;
    total.sum = 0.0f;
    for (unsigned int s = threadIdx.x; s < splits; s += THREADS) {
        LogSumExp part;
        part.max = partial_max[(size_t)s * tokens + token];
        part.sum = partial_sum[(size_t)s * tokens + token];
        total = lse_merge(total, part);
    }
    for (int offset = 16; offset > 0; offset /= 2) {
        LogSumExp other;
        other.max = __shfl_xor_sync(0xffffffffu, total.max, offset);
        other.sum = __shfl_xor_sync(0xffffffffu, total.sum, offset);
        total = lse_merge(total, other);
    }
    __shared__ LogSumExp warp_total[WARPS];
    if (lane == 0) warp_total[warp] = total;
    __syncthreads();
    if (threadIdx.x == 0) {
        total = warp_total[0];
        for (int w = 1; w < WARPS; ++w) total = lse_merge(total, warp_total[w]);
        logprobs[token] = target_logits[token] - (total.max + logf(total.sum));
    }
}

// The LM head as matrix products (Gpu::token_logprobs_by with HeadMethod::Products): cuBLAS
// writes the logits of one slice of the vocabulary, [tokens, columns], for vocabulary rows
// first_row ..; this kernel reduces each token's row of them to the slice's (max, sum) as split
// `split`, and picks the target logit when the target lies in the slice. One block per token;
// token_logprobs_combine then merges the slices as it merges the fused kernel's splits.
extern "C" __global__ void logits_logsumexp(
    const float *__restrict__ logits,          // [tokens, columns]
    const unsigned int *__restrict__ targets,  // [tokens]
    unsigned int tokens,
    unsigned int columns,
    unsigned int first_row,
    unsigned int split,
    float *__restrict__ partial_max,           // [splits, tokens]
    float *__restrict__ partial_sum,           // [splits, tokens]
    float *__restrict__ target_logits          // [tokens]
) {
    const unsigned int token = blockIdx.x;
    const unsigned int lane = threadIdx.x % 32;
    const unsigned int warp = threadIdx.x / 32;
    const float *row = logits + (size_t)token * columns;
    LogSumExp acc;
    acc.max = NEG_INF;
    acc.sum = 0.0f;
    for (unsigned int c = threadIdx.x; c < columns; c += THREADS) lse_push(&acc, row[c]);
    for (int offset = 16; offset > 0; offset /= 2) {
        LogSumExp other;
        other.max = __shfl_xor_sync(0xffffffffu, acc.max, offset);
        other.sum = __shfl_xor_sync(0xffffffffu, acc.sum, offset);
        acc = lse_merge(acc, other);
    }
    __shared__ LogSumExp warp_acc[WARPS];
    if (lane == 0) warp_acc[warp] = acc;
    __syncthreads();
    if (threadIdx.x == 0) {
        LogSumExp total = warp_acc[0];
        for (int w = 1; w < WARPS; ++w) total = lse_merge(total, warp_acc[w]);
        partial_max[(size_t)split * tokens + token] = total.max;
        partial_sum[(size_t)split * tokens + token] = total.sum;
        const unsigned int target = targets[token];
        if (target >= first_row && target - first_row < columns) target_logits[token] = row[target - first_row];
    }
}
