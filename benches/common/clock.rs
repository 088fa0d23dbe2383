//! The benches' clock: the CPU time of the thread where the system gives it, else wall time.

use std::time::{Duration, Instant};

/// The CPU time this thread has run (`clock_gettime(CLOCK_THREAD_CPUTIME_ID)`, exact to the
/// nanosecond on Linux): unlike wall time, it does not count the time other processes of a
/// busy machine ran instead. `None` elsewhere.
#[cfg(target_os = "linux")]
pub fn cpu_time() -> Option<Duration> {
    #[repr(C)]
    struct Timespec {
        tv_sec: i64,
        tv_nsec: i64,
    }
    // SAFETY: the C library's `clock_gettime`, which std links on Linux; it writes one
    // `struct timespec` (two 64-bit fields on 64-bit Linux) to the pointer it is given.
    #[allow(unsafe_code)]
    unsafe extern "C" {
        fn clock_gettime(clock: i32, tp: *mut Timespec) -> i32;
    }
    const CLOCK_THREAD_CPUTIME_ID: i32 = 3;
    if cfg!(not(target_pointer_width = "64")) {
        return None;
    }
    let mut t = Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid, writable `timespec`.
    #[allow(unsafe_code)]
    let rc = unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut t) };
    (rc == 0).then(|| Duration::new(t.tv_sec as u64, t.tv_nsec as u32))
}

#[cfg(not(target_os = "linux"))]
pub fn cpu_time() -> Option<Duration> {
    None
}

/// A clock: CPU time where available, else wall time.
pub struct Clock {
    cpu: Option<Duration>,
    wall: Instant,
}

impl Clock {
    pub fn start() -> Clock {
        Clock {
            cpu: cpu_time(),
            wall: Instant::now(),
        }
    }
    pub fn elapsed(&self) -> Duration {
        match (self.cpu, cpu_time()) {
            (Some(a), Some(b)) => b.saturating_sub(a),
            _ => self.wall.elapsed(),
        }
    }
}
