// The segmented reduction of token log-probs to one score per sequence. Sequence i is
// logprobs[offsets[i] .. offsets[i + 1]]; one block per sequence sums log p and exp(log p),
// then thread 0 finishes the score by kind (the same formulas as ScoreKind::finish):
//   0 mean_prob     (1/n) sum exp(logp)
//   1 mean_logprob  (1/n) sum logp
//   2 geo_mean      exp((1/n) sum logp)
//   3 product       exp(sum logp)
// An empty sequence scores 0.

#define THREADS 256

extern "C" __global__ void sequence_scores(
    const float *__restrict__ logprobs,
    const unsigned int *__restrict__ offsets,  // [sequences + 1]
    unsigned int kind,
    float *__restrict__ scores                  // [sequences]
) {
    const unsigned int sequence = blockIdx.x;
    const unsigned int begin = offsets[sequence];
    const unsigned int end = offsets[sequence + 1];
    float sum_logprob = 0.0f;
    float sum_prob = 0.0f;
    for (unsigned int i = begin + threadIdx.x; i < end; i += THREADS) {
        float x = logprobs[i];
        sum_logprob += x;
        sum_prob += expf(x);
    }
    __shared__ float shared_logprob[THREADS];
    __shared__ float shared_prob[THREADS];
    shared_logprob[threadIdx.x] = sum_logprob;
    shared_prob[threadIdx.x] = sum_prob;
    __syncthreads();
    for (unsigned int stride = THREADS / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) {
            shared_logprob[threadIdx.x] += shared_logprob[threadIdx.x + stride];
            shared_prob[threadIdx.x] += shared_prob[threadIdx.x + stride];
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        const float n = (float)(end - begin);
        float score = 0.0f;
        if (end > begin) {
            switch (kind) {
                case 0: score = shared_prob[0] / n; break;
                case 1: score = shared_logprob[0] / n; break;
                case 2: score = expf(shared_logprob[0] / n); break;
                default: score = expf(shared_logprob[0]); break;
            }
        }
        scores[sequence] = score;
    }
}
