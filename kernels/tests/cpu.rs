//! The CPU kernels against the plain definitions.

mod common;

use common::{Case, max_difference};
use referee_kernels::{KernelError, Matrix, ScoreKind, sequence_scores, token_logprobs};

fn fused(case: &Case) -> Result<Vec<f32>, KernelError> {
    token_logprobs(
        Matrix::new(&case.hidden, case.tokens, case.features)?,
        Matrix::new(&case.weight, case.vocab, case.features)?,
        &case.targets,
    )
}

#[test]
fn fused_lm_head_matches_materialised_log_softmax() -> Result<(), KernelError> {
    // Token counts off the group size, vocabularies off the split size and feature counts off
    // the vector width, with ordinary and very peaked logits.
    for (seed, tokens, features, vocab, scale) in
        [(1, 1, 8, 1, 1.0), (2, 3, 13, 17, 1.0), (3, 8, 64, 4096, 4.0), (4, 19, 37, 9001, 4.0), (5, 9, 96, 5000, 60.0)]
    {
        let case = Case::random(seed, tokens, features, vocab, scale);
        let got = fused(&case)?;
        assert_eq!(got.len(), tokens);
        let difference = max_difference(got.iter().map(|&x| f64::from(x)), case.reference());
        assert!(difference < 1e-4, "seed {seed}: max |fused − reference| = {difference}");
        assert!(got.iter().all(|x| x.is_finite() && *x <= 1e-5), "log-probs are finite and ≤ 0: {got:?}");
    }
    Ok(())
}

#[test]
fn a_one_word_vocabulary_is_certain() -> Result<(), KernelError> {
    let case = Case::random(7, 4, 16, 1, 10.0);
    assert!(fused(&case)?.iter().all(|x| x.abs() < 1e-6));
    Ok(())
}

#[test]
fn mismatched_operands_are_errors() -> Result<(), KernelError> {
    let hidden = vec![0.0f32; 6];
    let weight = vec![0.0f32; 12];
    let h = Matrix::new(&hidden, 2, 3)?;
    let w = Matrix::new(&weight, 4, 3)?;
    assert!(matches!(Matrix::new(&hidden, 4, 2), Err(KernelError::Shape(_))));
    assert!(matches!(token_logprobs(h, w, &[0]), Err(KernelError::Shape(_))));
    assert_eq!(token_logprobs(h, w, &[0, 4]), Err(KernelError::Target { position: 1, token: 4, vocab: 4 }));
    let narrow = Matrix::new(&weight, 6, 2)?;
    assert!(matches!(token_logprobs(h, narrow, &[0, 1]), Err(KernelError::Shape(_))));
    assert_eq!(token_logprobs(Matrix::new(&[], 0, 3)?, w, &[])?, Vec::<f32>::new());
    Ok(())
}

#[test]
fn sequence_scores_follow_their_formulas() -> Result<(), KernelError> {
    let logprobs = [-0.1f32, -0.5, -2.0, -0.25, -1.0];
    let offsets = [0, 3, 3, 5];
    let p = |x: f32| f64::from(x).exp();
    let expected = [
        (ScoreKind::MeanProb, [(p(-0.1) + p(-0.5) + p(-2.0)) / 3.0, 0.0, (p(-0.25) + p(-1.0)) / 2.0]),
        (ScoreKind::MeanLogprob, [-2.6 / 3.0, 0.0, -1.25 / 2.0]),
        (ScoreKind::GeoMean, [(-2.6f64 / 3.0).exp(), 0.0, (-1.25f64 / 2.0).exp()]),
        (ScoreKind::Product, [(-2.6f64).exp(), 0.0, (-1.25f64).exp()]),
    ];
    for (kind, want) in expected {
        let got = sequence_scores(&logprobs, &offsets, kind)?;
        assert!(max_difference(got.iter().copied(), want) < 1e-6, "{kind:?}: {got:?} vs {want:?}");
    }
    Ok(())
}

#[test]
fn bad_offsets_are_errors() {
    let logprobs = [-1.0f32; 4];
    for offsets in [&[][..], &[1, 4], &[0, 3], &[0, 3, 2, 4]] {
        assert!(matches!(sequence_scores(&logprobs, offsets, ScoreKind::MeanProb), Err(KernelError::Offsets(_))));
    }
}
