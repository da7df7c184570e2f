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
        heads: &Heads,
        meanings: &[Meaning],
        distributions: &mut [Option<Distribution>],
    ) -> Result<()> {
        for (i, j) in self.opposites(meanings)? {
            if let Some(Distribution::Noul(p)) = distributions[j]
                && learned_at(questions, heads, i).is_none()
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
        let plain = self.plain_statements(meanings)?;
        let mut pairs = Vec::new();
        let mut paired = std::collections::HashSet::new();
        for (n, later) in plain.iter().enumerate() {
            let mut best: Option<(f64, usize)> = None;
            for earlier in &plain[..n] {
                if paired.contains(&earlier.index) {
                    continue;
                }
                if let Some(similarity) = later.may_oppose(earlier)
                    && best.is_none_or(|(s, _)| similarity > s)
                {
                    best = Some((similarity, earlier.index));
                }
            }
            if let Some((_, j)) = best {
                paired.insert(later.index);
                pairs.push((later.index, j));
            }
        }
        Ok(pairs)
    }

    /// Every pair of plain statements [`Self::opposites`] could pair, whichever it picks:
    /// its pick for a noul depends only on the candidates of the nouls before it, so a group
    /// closed under these pairs is paired as in the whole request.
    fn could_oppose(&self, meanings: &[Meaning]) -> Result<Vec<(usize, usize)>> {
        let plain = self.plain_statements(meanings)?;
        let mut pairs = Vec::new();
        for (n, later) in plain.iter().enumerate() {
            pairs.extend(
                plain[..n]
                    .iter()
                    .filter(|earlier| later.may_oppose(earlier).is_some())
                    .map(|earlier| (later.index, earlier.index)),
            );
        }
        Ok(pairs)
    }

    /// Each plain statement's index, polarity, numbers and vector, worked out once.
    fn plain_statements(&self, meanings: &[Meaning]) -> Result<Vec<Plain>> {
        meanings
            .iter()
            .enumerate()
            .filter_map(|(i, m)| match m {
                Meaning::Statement(Statement::Plain(text)) => Some((i, text.as_str())),
                _ => None,
            })
            .map(|(index, text)| {
                Ok(Plain {
                    index,
                    polarity: meaning::reference::negative_words(text) % 2,
                    quantities: meaning::reference::quantities(text),
                    embedded: self.embedder.embed_cached(text)?,
                })
            })
            .collect()
    }

    /// The questions whose answers depend on one another ([`Engine::answered_together`]):
    /// the connected parts of what a noul may be read from, another question's outcome
    /// ([`meaning::could_refer`]) or an opposite statement ([`Self::could_oppose`]).
    /// Everything else is read question by question.
    pub(super) fn together(&self, questions: &Questions) -> Result<Vec<Vec<usize>>> {
        let meanings = meaning::plan(questions);
        let mut parts = Parts::new(questions.len());
        for (i, j) in meaning::could_refer(questions) {
            parts.join(i, j);
        }
        for (i, j) in self.could_oppose(&meanings)? {
            parts.join(i, j);
        }
        Ok(parts.groups())
    }
}

/// A plain statement of a request, as [`BuiltinEngine::opposites`] compares them.
struct Plain {
    index: usize,
    polarity: usize,
    quantities: Vec<u64>,
    embedded: Arc<embedder::Embedding>,
}

impl Plain {
    /// The similarity of two statements that may be each other's opposite: negative words
    /// of opposite parity, the same quantities, and within [`OPPOSITE_SIMILARITY`].
    fn may_oppose(&self, earlier: &Plain) -> Option<f64> {
        if earlier.polarity == self.polarity || earlier.quantities != self.quantities {
            return None;
        }
        let similarity = dot(&self.embedded.vector, &earlier.embedded.vector);
        (similarity >= OPPOSITE_SIMILARITY).then_some(similarity)
    }
}

/// Disjoint sets of question indices (union-find), read back as groups in request order.
struct Parts {
    parent: Vec<usize>,
}

impl Parts {
    fn new(len: usize) -> Self {
        Self {
            parent: (0..len).collect(),
        }
    }

    fn root(&mut self, mut i: usize) -> usize {
        while self.parent[i] != i {
            self.parent[i] = self.parent[self.parent[i]];
            i = self.parent[i];
        }
        i
    }

    fn join(&mut self, a: usize, b: usize) {
        let (a, b) = (self.root(a), self.root(b));
        if a != b {
            self.parent[a.max(b)] = a.min(b);
        }
    }

    /// Each group's indices ascending, groups by their first index.
    fn groups(mut self) -> Vec<Vec<usize>> {
        let mut groups: Vec<Vec<usize>> = Vec::new();
        let mut at: std::collections::HashMap<usize, usize> = std::collections::HashMap::new();
        for i in 0..self.parent.len() {
            let root = self.root(i);
            let k = *at.entry(root).or_insert_with(|| {
                groups.push(Vec::new());
                groups.len() - 1
            });
            groups[k].push(i);
        }
        groups
    }
}

/// A noul that refers to an option or level of another question is read from that
/// question's answer (unless it learned its own). A reference's question is a choice or a
/// score, never a reference itself.
pub(super) fn read_references(
    questions: &Questions,
    heads: &Heads,
    meanings: &[Meaning],
    distributions: &mut [Option<Distribution>],
) {
    for (i, meaning) in meanings.iter().enumerate() {
        if let Meaning::Refers {
            question,
            reference,
        } = meaning
            && learned_at(questions, heads, i).is_none()
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
fn learned_at<'a>(
    questions: &Questions,
    heads: &'a Heads,
    i: usize,
) -> Option<&'a learned::Learned> {
    heads.get(questions.get_index(i)?.0).map(AsRef::as_ref)
}
