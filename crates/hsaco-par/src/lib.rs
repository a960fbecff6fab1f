//! Short parallel jobs: worker threads held on CPUs of their own while they work.
//!
//! Some kernels leave a new thread on its parent's CPU, the two sharing it while other
//! CPUs idle, for milliseconds: a virtual machine's kernel that packs its threads onto
//! few virtual CPUs does (this project's 2-vCPU VM, `sched_vcpu_pack` on its kernel
//! command line). There, `hsaco read --metadata` over the corpus started its second
//! thread 1.5-5 ms after the first, in a run of 17-19 ms, and a two-thread job of
//! 2 x 5 ms of arithmetic took 7-10 ms instead of 5. So [`run`] and [`spread`]
//! hold the calling thread on the CPU it is on, start the others, and wait until each
//! has moved itself to another CPU of the process's set (a thread that sets its own CPU set off its CPU is
//! moved at once); then all work. The calling thread gets its CPU set back at the end.
//! (`hsaco dis` of a 1.4 MB object on the same VM, whose listing threads use
//! [`spread`]: 10.2 +- 1.0 ms before, 9.7 +- 0.2 ms after; 14.7 ms on one CPU.)
//! The work itself should be shared out as it goes (a counter the threads take items
//! from), so that a thread held on a CPU another program keeps busy does less of it.
//!
//! Where CPU sets cannot be read or changed (not Linux, not allowed, one CPU), the
//! threads are started as usual.

/// Runs `work` on `threads` threads, the calling one included, each held on a CPU of
/// its own when it can be (see the crate docs); returns when all have returned. A
/// panic in a thread is resumed in the caller.
pub fn run(threads: usize, work: impl Fn() + Sync) {
    let work = &work;
    spread(threads, |_| work(), work);
}

/// Runs `helper(i)` on new threads `i` = 1 to `threads - 1` and then `main` on the
/// calling thread, each held on a CPU of its own when it can be (see the crate docs);
/// returns what `main` returns once all have returned. A panic in a thread is resumed
/// in the caller.
pub fn spread<R>(threads: usize, helper: impl Fn(usize) + Sync, main: impl FnOnce() -> R) -> R {
    if threads <= 1 {
        return main();
    }
    let held = Held::here(threads);
    let helper = &helper;
    let r = std::thread::scope(|s| {
        let (moved, wait) = std::sync::mpsc::channel();
        let helpers: Vec<_> = (1..threads)
            .map(|i| {
                let cpu = held.as_ref().map(|h| h.cpu_for(i));
                let moved = moved.clone();
                s.spawn(move || {
                    if let Some(cpu) = cpu {
                        hold(cpu);
                    }
                    let _ = moved.send(());
                    drop(moved);
                    helper(i);
                })
            })
            .collect();
        drop(moved);
        if held.is_some() {
            // (while the calling thread waits, a helper placed on its CPU runs and
            // moves away; an error means a helper ended without a word: go on)
            // (not for long: a helper whose CPU another program keeps busy may take
            // a while to run there and say so)
            let until = std::time::Instant::now() + WAIT;
            for _ in 1..threads {
                let left = until.saturating_duration_since(std::time::Instant::now());
                if wait.recv_timeout(left).is_err() {
                    break;
                }
            }
        }
        let r = main();
        for h in helpers {
            if let Err(e) = h.join() {
                std::panic::resume_unwind(e);
            }
        }
        r
    });
    drop(held);
    r
}

/// How long [`spread`] waits for the helpers to move before it starts `main`: the
/// moves take ~0.2 ms on an idle machine.
const WAIT: std::time::Duration = std::time::Duration::from_millis(1);

/// The calling thread held on its CPU: the CPU set to give back, and the other CPUs
/// of the set, for the helpers.
#[cfg(target_os = "linux")]
struct Held {
    set: rustix::thread::CpuSet,
    others: Vec<usize>,
}

#[cfg(target_os = "linux")]
impl Held {
    /// Holds the calling thread on its CPU; `None` (nothing changed) if the process
    /// has fewer CPUs than `threads` (then some would share one, and the system
    /// places them better) or its set cannot be read or changed.
    fn here(threads: usize) -> Option<Held> {
        use rustix::thread::{sched_getaffinity, sched_getcpu, CpuSet};
        let set = sched_getaffinity(None).ok()?;
        let mine = sched_getcpu();
        if !set.is_set(mine) {
            return None;
        }
        let others: Vec<usize> = (0..CpuSet::MAX_CPU)
            .filter(|&c| c != mine && set.is_set(c))
            .collect();
        if others.len() + 1 < threads {
            return None;
        }
        let mut one = CpuSet::new();
        one.set(mine);
        rustix::thread::sched_setaffinity(None, &one).ok()?;
        Some(Held { set, others })
    }

    /// The CPU for helper `i` (1, 2, ...).
    fn cpu_for(&self, i: usize) -> usize {
        self.others[(i - 1) % self.others.len()]
    }
}

#[cfg(target_os = "linux")]
impl Drop for Held {
    fn drop(&mut self) {
        let _ = rustix::thread::sched_setaffinity(None, &self.set);
    }
}

/// Holds the calling thread on `cpu` (nothing if that is not allowed).
#[cfg(target_os = "linux")]
fn hold(cpu: usize) {
    let mut one = rustix::thread::CpuSet::new();
    one.set(cpu);
    let _ = rustix::thread::sched_setaffinity(None, &one);
}

#[cfg(not(target_os = "linux"))]
struct Held;

#[cfg(not(target_os = "linux"))]
impl Held {
    fn here(_: usize) -> Option<Held> {
        None
    }

    fn cpu_for(&self, _: usize) -> usize {
        0
    }
}

#[cfg(not(target_os = "linux"))]
fn hold(_: usize) {}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

    /// Every thread runs the work once, and a shared counter's items are each taken
    /// once, whatever the number of threads.
    #[test]
    fn every_thread_works_and_items_are_shared() {
        for threads in [1, 2, 3, 8] {
            let calls = AtomicUsize::new(0);
            let next = AtomicUsize::new(0);
            let taken: Vec<AtomicUsize> = (0..1000).map(|_| AtomicUsize::new(0)).collect();
            crate::run(threads, || {
                calls.fetch_add(1, Relaxed);
                while let Some(t) = taken.get(next.fetch_add(1, Relaxed)) {
                    t.fetch_add(1, Relaxed);
                }
            });
            assert_eq!(calls.into_inner(), threads);
            assert!(
                taken.iter().all(|t| t.load(Relaxed) == 1),
                "{threads} threads"
            );
        }
    }

    /// `spread` gives each helper its number once, and returns what `main` returns.
    #[test]
    fn spread_numbers_the_helpers_and_returns_mains_value() {
        for threads in [1, 2, 4] {
            let seen: Vec<AtomicUsize> = (0..threads).map(|_| AtomicUsize::new(0)).collect();
            let r = crate::spread(
                threads,
                |i| {
                    seen[i].fetch_add(1, Relaxed);
                },
                || threads * 10,
            );
            assert_eq!(r, threads * 10);
            assert_eq!(seen[0].load(Relaxed), 0, "no helper 0");
            assert!(seen[1..].iter().all(|s| s.load(Relaxed) == 1), "{threads}");
        }
    }

    /// The calling thread gets its CPU set back.
    #[cfg(target_os = "linux")]
    #[test]
    fn the_callers_cpu_set_is_given_back() {
        let before = rustix::thread::sched_getaffinity(None).unwrap();
        crate::run(2, || {});
        assert!(rustix::thread::sched_getaffinity(None).unwrap() == before);
    }

    /// A helper's panic reaches the caller, and the caller's CPU set is still given
    /// back.
    #[test]
    fn a_panic_is_resumed() {
        #[cfg(target_os = "linux")]
        let before = rustix::thread::sched_getaffinity(None).unwrap();
        let first = AtomicUsize::new(0);
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            crate::run(2, || {
                if first.fetch_add(1, Relaxed) == 1 {
                    panic!("helper");
                }
            })
        }));
        assert!(r.is_err());
        #[cfg(target_os = "linux")]
        assert!(rustix::thread::sched_getaffinity(None).unwrap() == before);
    }
}
