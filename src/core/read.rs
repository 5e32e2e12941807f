//! Reading entries by key, decided without I/O: how each key is asked for, and which keys are
//! asked again.
//!
//! A read asks for a key's record by its primary key `[e, k]` when this connection's hint knows
//! the expiry `e`, else through the key index. A hinted ask that finds nothing went by a stale
//! hint (another tab wrote the key, the reaper removed it): that key is asked again, once,
//! through the index. The adapter makes a request of each [`By`] and says which answers found a
//! record ([`KeyReads::answered`]); correctness never depends on a hint, only speed.

/// How one key is asked for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum By {
    /// By the primary key `[e, k]`, with the hinted expiry `e`.
    Primary(f64),
    /// Through the key index.
    Index,
}

/// A read of some keys: the rounds of asks it makes (one, or two when hints were stale).
#[derive(Debug)]
pub struct KeyReads {
    /// Each key's hinted expiry, the one its first ask goes by.
    hints: Vec<Option<f64>>,
    /// The keys (their positions) the round being answered asked for.
    round: Vec<usize>,
    /// The round being answered is the second.
    again: bool,
}

impl KeyReads {
    /// A read of keys with these hints, in their order.
    pub fn new(hints: Vec<Option<f64>>) -> Self {
        KeyReads { round: (0..hints.len()).collect(), hints, again: false }
    }

    /// The hint key `i`'s first ask went by.
    pub fn hint(&self, i: usize) -> Option<f64> {
        self.hints[i]
    }

    /// The asks of the round to make: each key's position and how it is asked for.
    pub fn asks(&self) -> impl Iterator<Item = (usize, By)> + '_ {
        let again = self.again;
        self.round.iter().map(move |&i| (i, if again { By::Index } else { self.hints[i].map_or(By::Index, By::Primary) }))
    }

    /// The round's answers, in the order of its asks (`found`: whether each found a record): the
    /// positions they answer for, and whether another round is to be made (then [`asks`] gives
    /// it).
    ///
    /// [`asks`]: KeyReads::asks
    pub fn answered(&mut self, found: &[bool]) -> (Vec<usize>, bool) {
        let answered = std::mem::take(&mut self.round);
        if !self.again {
            self.round = answered.iter().zip(found).filter(|&(&i, &f)| !f && self.hints[i].is_some()).map(|(&i, _)| i).collect();
            self.again = !self.round.is_empty();
            return (answered, self.again);
        }
        (answered, false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asks(r: &KeyReads) -> Vec<(usize, By)> {
        r.asks().collect()
    }

    #[test]
    fn hinted_keys_are_asked_by_primary_key_the_rest_through_the_index() {
        let r = KeyReads::new(vec![Some(5.0), None, Some(f64::INFINITY)]);
        assert_eq!(asks(&r), vec![(0, By::Primary(5.0)), (1, By::Index), (2, By::Primary(f64::INFINITY))]);
    }

    #[test]
    fn one_round_when_every_hinted_ask_finds_its_record() {
        let mut r = KeyReads::new(vec![Some(5.0), None]);
        // The unhinted key found nothing: it is missing, not stale.
        assert_eq!(r.answered(&[true, false]), (vec![0, 1], false));
        assert_eq!(asks(&r), vec![]);
    }

    #[test]
    fn stale_hints_are_asked_again_once_through_the_index() {
        let mut r = KeyReads::new(vec![Some(5.0), Some(6.0), None, Some(7.0)]);
        assert_eq!(r.answered(&[false, true, false, false]), (vec![0, 1, 2, 3], true));
        assert_eq!(asks(&r), vec![(0, By::Index), (3, By::Index)]);
        // Whatever the second round finds, there is no third.
        assert_eq!(r.answered(&[false, false]), (vec![0, 3], false));
        assert_eq!(asks(&r), vec![]);
        // The hints the first asks went by are kept, for the adapter to correct.
        assert_eq!((r.hint(0), r.hint(2), r.hint(3)), (Some(5.0), None, Some(7.0)));
    }

    #[test]
    fn no_keys_no_asks() {
        let mut r = KeyReads::new(vec![]);
        assert_eq!(asks(&r), vec![]);
        assert_eq!(r.answered(&[]), (vec![], false));
    }
}
