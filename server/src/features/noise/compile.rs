//! Compiling the stored noise models for the request path: each key's model from its chosen
//! source, the corrected rewards of a verdict 0 and 1, and its appeal settings.

use super::*;

impl NoiseLayer {
    pub(super) fn compile(
        &self,
        key: NoiseKey,
        settings: Option<NoiseSettings>,
        audit: VerdictTally,
        appeal: VerdictTally,
        step: u64,
    ) -> Compiled {
        let settings = settings.unwrap_or_default();
        let configured = match settings.configured {
            None => SourceModel { model: None, unavailable: Some("no rates are configured".to_owned()) },
            Some(rates) => source_model(NoiseModel::configured(rates).map_err(|e| e.to_string())),
        };
        let audit_model = if audit.checked() == 0 {
            SourceModel { model: None, unavailable: Some("no audit was uploaded".to_owned()) }
        } else {
            let method = settings.audit_interval.unwrap_or_default();
            source_model(NoiseModel::from_audit(&audit, method).map_err(|e| e.to_string()))
        };
        let appeal_model = if appeal.observed() == 0 && appeal.checked() == 0 {
            let why = if settings.appeal.is_some() { "no verdict was appealed yet" } else { "appeals are off" };
            SourceModel { model: None, unavailable: Some(why.to_owned()) }
        } else {
            let fixed_rho0 = settings.appeal.as_ref().and_then(|a| a.fixed_rho0);
            source_model(self.appeal_model(&key, &appeal, fixed_rho0))
        };
        let chosen = match settings.use_source {
            Some(NoiseSource::Configured) => Some((NoiseSource::Configured, &configured)),
            Some(NoiseSource::Audit) => Some((NoiseSource::Audit, &audit_model)),
            Some(NoiseSource::Appeal) => Some((NoiseSource::Appeal, &appeal_model)),
            None => [
                (NoiseSource::Audit, &audit_model),
                (NoiseSource::Appeal, &appeal_model),
                (NoiseSource::Configured, &configured),
            ]
            .into_iter()
            .find(|(_, m)| m.model.is_some()),
        };
        let (source, model) = match chosen {
            Some((source, m)) => (m.model.map(|_| source), m.model),
            None => (None, None),
        };
        let corrections = model.map(|m| [false, true].map(|verdict| m.correct(verdict, &self.policy)));
        let backward = corrections.as_ref().map_or([None, None], |c| [c[0].backward, c[1].backward]);
        let rewards =
            corrections.and_then(|[zero, one]| Some([SharedJson::new(&zero).ok()?, SharedJson::new(&one).ok()?]));
        let appeal_runner = settings.appeal.as_ref().and_then(|a| {
            Some(CompiledAppeal {
                checker: self.registry.index_of(&a.checker)?,
                patch: a.input_patch.clone(),
                rates: a.rates,
                overturn: a.overturn,
            })
        });
        let status = NoiseStatus {
            verifier: key.verifier.clone(),
            version: key.version.clone(),
            label: key.label(),
            refused: model.and_then(|m| m.refusal(&self.policy)),
            source,
            model,
            settings,
            j_floor: self.policy.j_floor,
            step,
            configured,
            audit: audit_model,
            appeal: appeal_model,
            audit_counts: audit,
            appeal_counts: appeal,
        };
        Compiled { key, status, rewards, backward, appeal: appeal_runner, step }
    }

    fn appeal_model(
        &self,
        key: &NoiseKey,
        tally: &VerdictTally,
        fixed_rho0: Option<f64>,
    ) -> Result<NoiseModel, String> {
        let mut cache = self.appeal_models.lock().unwrap_or_else(PoisonError::into_inner);
        let rho0_bits = fixed_rho0.map(f64::to_bits);
        if let Some((seen, seen_rho0, model)) = cache.get(key)
            && seen == tally
            && *seen_rho0 == rho0_bits
        {
            return model.clone();
        }
        let monte_carlo = MonteCarlo { draws: self.config.monte_carlo_draws, ..MonteCarlo::default() };
        let model = match fixed_rho0 {
            Some(rho0) => NoiseModel::from_negative_appeals(tally, rho0, &monte_carlo),
            None => NoiseModel::from_appeals(tally, &monte_carlo),
        }
        .map_err(|e| e.to_string());
        cache.insert(key.clone(), (*tally, rho0_bits, model.clone()));
        model
    }
}

fn source_model(model: Result<NoiseModel, String>) -> SourceModel {
    match model {
        Ok(model) => SourceModel { model: Some(model), unavailable: None },
        Err(reason) => SourceModel { model: None, unavailable: Some(reason) },
    }
}
