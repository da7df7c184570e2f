//! What one question of a request says of another: a noul worded as the opposite of an
//! earlier one, and a noul that names an option or level of another question, are read
//! from that question's answer instead of on their own.

#[allow(clippy::wildcard_imports)]
use super::*;

impl BuiltinEngine {
    /// A noul worded as the opposite of an earlier one is read from it (unless it learned
    /// its own answer).
    pub(super) fn read_opposites(
        &self,
        questions: &Questions,
        meanings: &[Meaning],
        distributions: &mut [Option<Distribution>],
    ) -> Result<()> {
        for (i, j) in self.opposites(meanings)? {
            if let Some(Distribution::Noul(p)) = distributions[j]
                && learned_at(questions, i).is_none()
            {
                distributions[i] = Some(Distribution::Noul(1.0 - p));
            }
        }
        Ok(())
    }

    /// The nouls of a request worded as the opposite of an earlier one, as (noul, earlier
    /// noul): both plain statements ([`Statement::Plain`]) that the encoder places within
    /// [`OPPOSITE_SIMILARITY`] of each other, with negative words of opposite parity
    /// ([`meaning::reference::negative_words`]) and the same quantities (a negation keeps
    /// the numbers it negates: "more than 10" / "ten or fewer"). An encoder cannot tell a
    /// statement from its negation, so the pair is decided once: the later is one minus the
    /// earlier.
    pub(super) fn opposites(&self, meanings: &[Meaning]) -> Result<Vec<(usize, usize)>> {
        // Each plain statement's index, polarity, numbers and vector, worked out once.
        let plain = meanings
            .iter()
            .enumerate()
            .filter_map(|(i, m)| match m {
                Meaning::Statement(Statement::Plain(text)) => Some((i, text.as_str())),
                _ => None,
            })
            .map(|(i, text)| {
                Ok((
                    i,
                    meaning::reference::negative_words(text) % 2,
                    meaning::reference::quantities(text),
                    self.embedder.embed_cached(text)?,
                ))
            })
            .collect::<Result<Vec<_>>>()?;
        let mut pairs = Vec::new();
        let mut paired = std::collections::HashSet::new();
        for (n, (i, polarity, quantities, vector)) in plain.iter().enumerate() {
            let mut best: Option<(f64, usize)> = None;
            for (j, earlier_polarity, earlier_quantities, earlier) in &plain[..n] {
                if paired.contains(j)
                    || earlier_polarity == polarity
                    || earlier_quantities != quantities
                {
                    continue;
                }
                let similarity = dot(&vector.vector, &earlier.vector);
                if similarity >= OPPOSITE_SIMILARITY && best.is_none_or(|(s, _)| similarity > s) {
                    best = Some((similarity, *j));
                }
            }
            if let Some((_, j)) = best {
                paired.insert(*i);
                pairs.push((*i, j));
            }
        }
        Ok(pairs)
    }
}

/// A noul that refers to an option or level of another question is read from that
/// question's answer (unless it learned its own). A reference's question is a choice or a
/// score, never a reference itself.
pub(super) fn read_references(
    questions: &Questions,
    meanings: &[Meaning],
    distributions: &mut [Option<Distribution>],
) {
    for (i, meaning) in meanings.iter().enumerate() {
        if let Meaning::Refers {
            question,
            reference,
        } = meaning
            && learned_at(questions, i).is_none()
        {
            let p = referred(distributions[*question].as_ref(), reference);
            distributions[i] = Some(Distribution::Noul(p));
        }
    }
}

/// `P(true)` of a noul about outcomes of another question, from that question's
/// distribution (0.5 when it has none).
pub(super) fn referred(
    distribution: Option<&Distribution>,
    reference: &meaning::reference::Reference,
) -> f64 {
    let Some(Distribution::Outcomes(ps)) = distribution else {
        return 0.5;
    };
    let total: f64 = ps.iter().sum();
    if total <= 0.0 || !total.is_finite() {
        return 0.5;
    }
    let mass: f64 = reference
        .outcomes
        .iter()
        .filter_map(|&i| ps.get(i))
        .sum::<f64>()
        / total;
    let mass = mass.clamp(0.0, 1.0);
    if reference.negated { 1.0 - mass } else { mass }
}

/// The learned head of the `i`th question, if it has one: its answer is its own, never
/// derived from another question's.
fn learned_at(questions: &Questions, i: usize) -> Option<&crate::learned::Learned> {
    questions.get_index(i)?.1.learned.as_deref()
}
