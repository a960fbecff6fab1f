//! Short parallel jobs: worker threads, held on CPUs of their own only where that was
//! measured to help.
//!
//! [`run`] and [`spread`] start the threads and share the work out; the work itself
//! should be shared out as it goes (a counter the threads take items from), so that a
//! thread that another program's work slows down does less of it.
//!
//! # Holding threads on CPUs: the exception
//!
//! Some kernels leave a new thread on its parent's CPU, the two sharing it while other
//! CPUs idle, for milliseconds: a virtual machine's kernel that packs its threads onto
//! few virtual CPUs does (this project's 2-vCPU VM, `sched_vcpu_pack` on its kernel
//! command line). There, `hsaco read --metadata` over the corpus started its second
//! thread 1.5-5 ms after the first, in a run of 17-19 ms, and a two-thread job of
//! 2 x 5 ms of arithmetic took 7-10 ms instead of 5; holding the calling thread on the
//! CPU it is on and each helper on another (a thread that sets its own CPU set off its
//! CPU is moved at once) fixed that (`hsaco dis` of a 1.4 MB object: 10.2 +- 1.0 ms
//! before, 9.7 +- 0.2 ms after; 14.7 ms on one CPU).
//!
//! On an ordinary 16-core Linux host (`../../shared/measurements/thread-pinning-16-cores.md`,
//! 25 interleaved runs each, medians) holding was within noise when the machine was
//! idle (`read --metadata` over 828 objects 14.2 ms held, 15.1 not; `dis` of a 4.9 MB
//! object 19.7 and 20.7 ms) and cost up to two thirds more time with other work on the
//! machine (15 busy CPUs: `read --metadata` 34.1 ms held, 20.5 not; `dis` 40.3 and
//! 35.9 ms): a thread held on a CPU that another program keeps busy waits for it
//! instead of moving to a free one. Users run hsaco beside other work on machines
//! unlike that VM, so holding is off unless all of these hold:
//! - the kernel packs virtual CPUs (`sched_vcpu_pack` on its command line: the case
//!   measured to gain);
//! - the process may use exactly as many CPUs as the job has threads (a larger set
//!   leaves the system room to place them; a smaller one makes threads share CPUs);
//! - the machine is not oversubscribed (`/proc/loadavg`: at most one runnable task per
//!   CPU of the set, the caller included): on a shared machine holding costs more than
//!   it gains. (On the idle VM the count read at that moment is usually 2, not 1: with
//!   "1" as the limit `dis` of the 1.7 MB library object was not held and took 6.15 ms
//!   a run in a shell loop of 100, against 5.23 ms with `HSACO_PIN=1` and 4.58-4.73 ms
//!   with this rule, 2026-11-27.)
//!
//! On the 2-vCPU VM with one other program busy (load average 2.3; 25 interleaved
//! runs, best / median): `dis` of a 1.7 MB library object 5.17 / 7.82 ms held, 6.03 /
//! 10.22 ms not, 5.32 / 7.68 ms as decided here; `read --metadata` over 40 library
//! objects 5.71 / 10.20, 6.66 / 10.94, 5.57 / 12.82 ms.
//!
//! `HSACO_PIN=1` in the environment holds whenever the CPU set has room for the
//! threads, `HSACO_PIN=0` never. Where CPU sets cannot be read or changed (not Linux,
//! not allowed), the threads are started as usual. The calling thread gets its CPU set
//! back at the end.

/// The CPUs the process may use, as [`std::thread::available_parallelism`] counts them
/// (its CPU set and cgroup CPU quota; 1 if unknown), found once: std reads the cgroup
/// files again at each call (a dozen system calls), and `hsaco dis` asks once per
/// object it lists in pieces.
pub fn available() -> usize {
    static CPUS: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CPUS.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// Runs `work` on `threads` threads, the calling one included (each held on a CPU of
/// its own only where that is worth it: see the crate docs); returns when all have
/// returned. A panic in a thread is resumed in the caller.
pub fn run(threads: usize, work: impl Fn() + Sync) {
    let work = &work;
    spread(threads, |_| work(), work);
}

/// Runs `helper(i)` on new threads `i` = 1 to `threads - 1` and then `main` on the
/// calling thread (each held on a CPU of its own only where that is worth it: see the
/// crate docs); returns what `main` returns once all have returned. A panic in a
/// thread is resumed in the caller.
pub fn spread<R>(threads: usize, helper: impl Fn(usize) + Sync, main: impl FnOnce() -> R) -> R {
    let pin = pin_from_env(std::env::var_os("HSACO_PIN").as_deref());
    spread_as(threads, pin, helper, main)
}

/// [`spread`], holding the threads as `pin` says (`None`: when worth it).
fn spread_as<R>(
    threads: usize,
    pin: Option<bool>,
    helper: impl Fn(usize) + Sync,
    main: impl FnOnce() -> R,
) -> R {
    if threads <= 1 {
        return main();
    }
    let held = Held::here(threads, pin);
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
    /// Holds the calling thread on its CPU; `None` (nothing changed) if `forced` is
    /// `Some(false)`, or it is `None` and holding is not worth it ([`worth_holding`]),
    /// or the process has fewer CPUs than `threads` (then some would share one, and
    /// the system places them better), or its set cannot be read or changed.
    fn here(threads: usize, forced: Option<bool>) -> Option<Held> {
        use rustix::thread::{sched_getaffinity, sched_getcpu, CpuSet};
        if forced == Some(false) {
            return None;
        }
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
        if forced.is_none()
            && !worth_holding(
                threads,
                others.len() + 1,
                packs_vcpus(),
                running_tasks().unwrap_or(usize::MAX),
            )
        {
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

/// `HSACO_PIN`: `Some(true)` for `1`, `Some(false)` for `0`, `None` (decide) for
/// anything else or nothing.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
fn pin_from_env(value: Option<&std::ffi::OsStr>) -> Option<bool> {
    match value?.to_str()?.trim() {
        "1" => Some(true),
        "0" => Some(false),
        _ => None,
    }
}

/// Whether holding `threads` threads is worth it (see the crate docs): the kernel
/// packs virtual CPUs, the process's CPU set has exactly `cpus` = `threads` CPUs, and
/// `running` (tasks running or runnable on the machine, the caller included) is at
/// most `cpus`.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
fn worth_holding(threads: usize, cpus: usize, packs_vcpus: bool, running: usize) -> bool {
    packs_vcpus && cpus == threads && running <= cpus
}

/// Whether the kernel was started with `sched_vcpu_pack` (read once).
#[cfg(target_os = "linux")]
fn packs_vcpus() -> bool {
    static PACKS: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *PACKS.get_or_init(|| {
        std::fs::read_to_string("/proc/cmdline").is_ok_and(|c| {
            c.split_whitespace()
                .any(|w| w == "sched_vcpu_pack" || w.starts_with("sched_vcpu_pack="))
        })
    })
}

/// Tasks running or runnable on the machine now: the numerator of the fourth field
/// of `/proc/loadavg` (`0.52 0.58 0.59 2/467 12345`).
#[cfg(target_os = "linux")]
fn running_tasks() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    running_from_loadavg(&text)
}

#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
fn running_from_loadavg(text: &str) -> Option<usize> {
    text.split_whitespace()
        .nth(3)?
        .split('/')
        .next()?
        .parse()
        .ok()
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
    fn here(_: usize, _: Option<bool>) -> Option<Held> {
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

    /// Holding only where it was measured to help, or as `HSACO_PIN` says.
    #[test]
    fn holding_is_the_exception() {
        use crate::{pin_from_env, running_from_loadavg, worth_holding};
        use std::ffi::OsStr;
        assert_eq!(pin_from_env(Some(OsStr::new("1"))), Some(true));
        assert_eq!(pin_from_env(Some(OsStr::new("0"))), Some(false));
        assert_eq!(pin_from_env(Some(OsStr::new("yes"))), None);
        assert_eq!(pin_from_env(None), None);
        assert_eq!(
            running_from_loadavg("0.52 0.58 0.59 2/467 12345\n"),
            Some(2)
        );
        assert_eq!(running_from_loadavg("0.52 0.58"), None);
        // the 2-vCPU VM, idle: held
        assert!(worth_holding(2, 2, true, 1));
        assert!(worth_holding(2, 2, true, 2));
        // more runnable tasks than CPUs, a larger or smaller CPU set, a kernel that
        // does not pack
        assert!(!worth_holding(2, 2, true, 3));
        assert!(!worth_holding(8, 16, true, 1));
        assert!(!worth_holding(2, 1, true, 1));
        assert!(!worth_holding(2, 2, false, 1));
    }

    /// The calling thread gets its CPU set back.
    #[cfg(target_os = "linux")]
    #[test]
    fn the_callers_cpu_set_is_given_back() {
        let before = rustix::thread::sched_getaffinity(None).unwrap();
        for pin in [Some(true), Some(false), None] {
            crate::spread_as(2, pin, |_| {}, || {});
            assert!(rustix::thread::sched_getaffinity(None).unwrap() == before);
        }
    }

    /// A helper's panic reaches the caller, and the caller's CPU set is still given
    /// back.
    #[test]
    fn a_panic_is_resumed() {
        #[cfg(target_os = "linux")]
        let before = rustix::thread::sched_getaffinity(None).unwrap();
        let first = AtomicUsize::new(0);
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let work = || {
                if first.fetch_add(1, Relaxed) == 1 {
                    panic!("helper");
                }
            };
            crate::spread_as(2, Some(true), |_| work(), work)
        }));
        assert!(r.is_err());
        #[cfg(target_os = "linux")]
        assert!(rustix::thread::sched_getaffinity(None).unwrap() == before);
    }
}
