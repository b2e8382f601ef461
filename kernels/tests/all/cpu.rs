//! The CPU kernels against the plain definitions.

use super::common::{Case, max_difference};
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

mod decoder_layers {
    use referee_kernels::{KernelError, Matrix, layers};

    fn close(a: &[f32], b: &[f32]) -> bool {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-6)
    }

    #[test]
    fn matmul_multiplies_by_the_transposed_weight() -> Result<(), KernelError> {
        // [1 2; 3 4] · [5 6 7; 8 9 10]
        let product =
            layers::matmul(Matrix::new(&[1., 2., 3., 4.], 2, 2)?, Matrix::new(&[5., 6., 7., 8., 9., 10.], 2, 3)?)?;
        assert_eq!(product, [21., 24., 27., 47., 54., 61.]);
        assert!(layers::matmul(Matrix::new(&[1., 2.], 1, 2)?, Matrix::new(&[1., 2., 3.], 3, 1)?).is_err());
        Ok(())
    }

    #[test]
    fn rms_norm_divides_by_the_root_mean_square() -> Result<(), KernelError> {
        let normed = layers::rms_norm(Matrix::new(&[3., 4., 0., 0.], 2, 2)?, &[1., 2.], 0.0)?;
        let root = 12.5f32.sqrt();
        assert!(close(&normed[..2], &[3. / root, 8. / root]), "{normed:?}");
        assert!(normed[2..].iter().all(|x| x.is_nan()), "a zero row with eps 0 divides by zero: {normed:?}");
        assert!(layers::rms_norm(Matrix::new(&[1., 2.], 1, 2)?, &[1.], 1e-6).is_err());
        Ok(())
    }

    #[test]
    fn rope_rotates_each_head_by_its_position() -> Result<(), KernelError> {
        // Two positions, two heads of size 2: position 0 turns by 0, position 1 by a quarter turn.
        let mut x = vec![1., 2., 3., 4., 1., 2., 3., 4.];
        let (cos, sin) = ([1., 0.], [0., 1.]);
        layers::rope(&mut x, 2, Matrix::new(&cos, 2, 1)?, Matrix::new(&sin, 2, 1)?)?;
        assert!(close(&x, &[1., 2., 3., 4., -2., 1., -4., 3.]), "{x:?}");
        assert!(layers::rope(&mut x, 3, Matrix::new(&cos, 2, 1)?, Matrix::new(&sin, 2, 1)?).is_err());
        Ok(())
    }

    #[test]
    fn causal_attention_reads_only_earlier_positions() -> Result<(), KernelError> {
        // Equal keys: each query averages the values up to its position. Two query heads share
        // the single key/value head.
        let (n, d) = (3, 2);
        let q: Vec<f32> = (0..n * 2 * d).map(|i| i as f32).collect();
        let k = vec![1.0; n * d];
        let v = vec![1., 10., 2., 20., 6., 60.];
        let out = layers::causal_attention(
            Matrix::new(&q, n, 2 * d)?,
            Matrix::new(&k, n, d)?,
            Matrix::new(&v, n, d)?,
            2,
            1,
            0.5,
        )?;
        let expected = [1., 10., 1., 10., 1.5, 15., 1.5, 15., 3., 30., 3., 30.];
        assert!(close(&out, &expected), "{out:?}");
        let mismatched = layers::causal_attention(
            Matrix::new(&q, n, 2 * d)?,
            Matrix::new(&k, n, d)?,
            Matrix::new(&v, n, d)?,
            3,
            2,
            0.5,
        );
        assert!(mismatched.is_err());
        Ok(())
    }

    #[test]
    fn segmented_attention_keeps_each_sequence_to_itself() -> Result<(), KernelError> {
        // Two sequences of 2 and 3 rows laid end to end, equal keys: each query averages the
        // values from its own sequence's start, never the other sequence's.
        let (n, d) = (5, 1);
        let q = vec![1.0; n * d];
        let k = vec![1.0; n * d];
        let v = vec![2., 4., 10., 20., 60.];
        let matrices = (Matrix::new(&q, n, d)?, Matrix::new(&k, n, d)?, Matrix::new(&v, n, d)?);
        let out = layers::segmented_causal_attention(matrices.0, matrices.1, matrices.2, &[0, 2, 2, 5], 1, 1, 1.0)?;
        assert!(close(&out, &[2., 3., 10., 15., 30.]), "{out:?}");
        for bad in [&[0, 2][..], &[1, 5], &[0, 3, 2, 5], &[]] {
            let refused = layers::segmented_causal_attention(matrices.0, matrices.1, matrices.2, bad, 1, 1, 1.0);
            assert!(refused.is_err(), "{bad:?}");
        }
        Ok(())
    }

    #[test]
    fn elementwise_steps_and_gathering() -> Result<(), KernelError> {
        let mut x = vec![1., 2., 3., 4.];
        layers::add_bias(&mut x, &[10., 20.])?;
        assert_eq!(x, [11., 22., 13., 24.]);
        assert!(layers::add_bias(&mut x, &[1., 2., 3.]).is_err());

        let mut sum = vec![1., 2.];
        layers::add_in_place(&mut sum, &[0.5, -2.])?;
        assert_eq!(sum, [1.5, 0.]);
        assert!(layers::add_in_place(&mut sum, &[1.]).is_err());

        let mut gate = vec![0., 20., -20.];
        layers::silu_mul(&mut gate, &[5., 2., 2.])?;
        assert!(close(&gate, &[0., 40., 0.]), "{gate:?}");

        let rows = layers::gather_rows(Matrix::new(&[1., 2., 3., 4., 5., 6.], 3, 2)?, &[2, 0, 2])?;
        assert_eq!(rows, [5., 6., 1., 2., 5., 6.]);
        assert!(layers::gather_rows(Matrix::new(&[1., 2.], 1, 2)?, &[1]).is_err());
        Ok(())
    }
}
