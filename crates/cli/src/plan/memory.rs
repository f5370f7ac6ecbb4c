//! Part of the plan layer: the memory this machine has for a run, and an instance's estimate
//! ([`treesplit_apps::instance::Footprint`], which each application makes of its own data)
//! against it, before the instance's data is built: an instance that does not fit is bad
//! input, with both figures, the limit that decided and what to change. The memory is the
//! tightest of the limits this process can read ([`available`]): `MemAvailable` of
//! /proc/meminfo, the address-space and data-segment limits (`ulimit -v`, `ulimit -d`) less
//! what the process already maps, and the memory limit of its cgroup and of every cgroup
//! above it (v2 `memory.max`, v1 `memory.limit_in_bytes`, as under Slurm or a container)
//! less what the cgroup uses; or `TREESPLIT_MEMORY_MIB` (MiB) where that is set. No figure
//! (no limit readable), no check. The simulator's own estimate (`plan::sim_memory`) is
//! compared with the same figure. The readings are pure functions of the files' text, so
//! that they are tested without the machine's files.

use super::{App, Env};
use crate::output::Failure;
use std::path::{Path, PathBuf};

/// The stack of a `bench` rayon pool's thread (deep: the peers recurse), counted against
/// the address space before the pools are built.
pub const RAYON_STACK: u64 = 256 << 20;

/// Memory available to a run, in bytes, and where the figure comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Available {
    /// Bytes.
    pub bytes: u64,
    /// The limit that decided, in words the user can act on.
    pub source: String,
}

/// The variable that sets the memory a run may take (MiB), instead of the limits read.
pub const MEMORY_VAR: &str = "TREESPLIT_MEMORY_MIB";

/// The memory available to a run in this process: `TREESPLIT_MEMORY_MIB` where set, else the
/// tightest of the limits it can read (`None` where it can read none).
pub fn available() -> Result<Option<Available>, Failure> {
    if let Some(v) = std::env::var_os(MEMORY_VAR) {
        let mib = v.to_str().and_then(|v| v.trim().parse::<u64>().ok());
        return match mib.and_then(|mib| mib.checked_mul(1 << 20)) {
            Some(bytes) => Ok(Some(Available {
                bytes,
                source: MEMORY_VAR.to_string(),
            })),
            None => Err(Failure::input(format!(
                "{MEMORY_VAR}={}: expected the memory a run may take, in MiB (a whole number)",
                v.to_string_lossy()
            ))),
        };
    }
    Ok(tightest(limits()))
}

/// The smallest of `limits` (the first of equals).
pub fn tightest(limits: impl IntoIterator<Item = Available>) -> Option<Available> {
    limits
        .into_iter()
        .reduce(|a, b| if b.bytes < a.bytes { b } else { a })
}

/// The address space this process has left under its address-space limit (`ulimit -v`: the
/// limit less what it maps already), where there is such a limit and `TREESPLIT_MEMORY_MIB`
/// does not set the figure. Threads reserve address space beyond the memory they use (their
/// stacks, malloc's arenas), which this limit counts and the others do not ([`fit_threads`]).
pub fn address_space() -> Option<u64> {
    if std::env::var_os(MEMORY_VAR).is_some() {
        return None;
    }
    let (limit, used, _) = rlimits().into_iter().next()?;
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    Some(limit?.saturating_sub(parse_status_kib(&status, used).unwrap_or(0)))
}

/// The stack of a thread that sets none (std's default, 2 MiB).
pub const THREAD_STACK: u64 = 2 << 20;

/// The address space glibc's malloc reserves for each arena beyond the first (64 MiB on 64-bit
/// machines); it makes up to 8 per core, one for each thread that allocates while the others
/// hold theirs.
const ARENA: u64 = 64 << 20;

/// The address space that `threads` (how many, and the stack of each) reserve on a machine of
/// `cores` cores: their stacks, and a malloc arena each up to glibc's 8 per core.
pub fn threads_address_space(threads: &[(usize, u64)], cores: usize) -> u64 {
    let count: u64 = threads.iter().map(|&(n, _)| n as u64).sum();
    let stacks = threads.iter().fold(0u64, |sum, &(n, stack)| {
        sum.saturating_add((n as u64).saturating_mul(stack))
    });
    let arenas = if cfg!(target_env = "gnu") {
        count.min(8 * cores.max(1) as u64)
    } else {
        0
    };
    stacks.saturating_add(arenas.saturating_mul(ARENA))
}

/// Refuse a run of `threads` (how many, and the stack of each) beside `app`'s data where the
/// address-space limit (`ulimit -v`) leaves no room for their stacks and arenas: the OS would
/// refuse to start a thread, or an allocation would abort the process, in the middle of the run.
/// `fewer`: the flag that asks for fewer threads.
pub fn fit_threads(
    app: Option<&App>,
    threads: &[(usize, u64)],
    fewer: &str,
    env: &Env,
) -> Result<(), Failure> {
    let Some(room) = env.address_space else {
        return Ok(());
    };
    let count: usize = threads.iter().map(|&(n, _)| n).sum();
    let reserved = threads_address_space(threads, env.cores);
    let instance = app.and_then(|a| a.footprint());
    let needed = reserved.saturating_add(instance.as_ref().map_or(0, |f| f.bytes));
    if needed <= room {
        return Ok(());
    }
    let beside = match &instance {
        Some(f) => format!(" beside the instance's {}", size(f.bytes)),
        None => String::new(),
    };
    Err(Failure::input(format!(
        "{} {} about {} of address space (their stacks and malloc's arenas){beside}, more than the {} left under the address-space limit (ulimit -v); raise the limit (ulimit -v) or give fewer {fewer}",
        treesplit::words::count(count, "thread", "threads"),
        treesplit::words::noun(count, "reserves", "reserve"),
        size(reserved),
        size(room)
    )))
}

/// Every memory limit of this process that it can read, each less what is already used of it.
fn limits() -> Vec<Available> {
    let read = |path: &Path| std::fs::read_to_string(path).ok();
    let mut found = Vec::new();
    if let Some(bytes) = read(Path::new("/proc/meminfo")).and_then(|t| parse_available(&t)) {
        found.push(Available {
            bytes,
            source: "MemAvailable in /proc/meminfo".to_string(),
        });
    }
    let status = read(Path::new("/proc/self/status")).unwrap_or_default();
    for (limit, used, source) in rlimits() {
        if let Some(max) = limit {
            let used = parse_status_kib(&status, used).unwrap_or(0);
            found.push(Available {
                bytes: max.saturating_sub(used),
                source: source.to_string(),
            });
        }
    }
    let cgroups = read(Path::new("/proc/self/cgroup")).unwrap_or_default();
    let mounts = read(Path::new("/proc/self/mountinfo")).unwrap_or_default();
    for dir in cgroup_dirs(&cgroups, &mounts) {
        let file = |name: &str| read(&dir.path.join(name));
        let (limit_file, current_file, inactive) = match dir.version {
            CgroupVersion::V2 => ("memory.max", "memory.current", "inactive_file"),
            CgroupVersion::V1 => (
                "memory.limit_in_bytes",
                "memory.usage_in_bytes",
                "total_inactive_file",
            ),
        };
        let (Some(limit), Some(current)) = (file(limit_file), file(current_file)) else {
            continue;
        };
        let stat = file("memory.stat").unwrap_or_default();
        if let Some(bytes) = cgroup_headroom(&limit, &current, &stat, inactive) {
            found.push(Available {
                bytes,
                source: format!(
                    "the cgroup memory limit ({})",
                    dir.path.join(limit_file).display()
                ),
            });
        }
    }
    found
}

/// The resource limits on memory, the address-space limit first, each with the line of
/// /proc/self/status that says what the process already uses of it and its name for the
/// user: the soft limit in bytes, `None` where there is none.
#[cfg(unix)]
fn rlimits() -> [(Option<u64>, &'static str, &'static str); 2] {
    let get = |resource| {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit only writes the limit into the struct it is given.
        let ok = unsafe { libc::getrlimit(resource, &mut limit) } == 0;
        // rlim_t is u64 on Linux, not on every Unix.
        #[allow(clippy::unnecessary_cast)]
        let bytes = limit.rlim_cur as u64;
        (ok && limit.rlim_cur != libc::RLIM_INFINITY).then_some(bytes)
    };
    [
        (
            get(libc::RLIMIT_AS),
            "VmSize",
            "the address-space limit (ulimit -v)",
        ),
        (
            get(libc::RLIMIT_DATA),
            "VmData",
            "the data-segment limit (ulimit -d)",
        ),
    ]
}

#[cfg(not(unix))]
fn rlimits() -> [(Option<u64>, &'static str, &'static str); 0] {
    []
}

/// `MemAvailable` of a /proc/meminfo text, in bytes.
pub fn parse_available(meminfo: &str) -> Option<u64> {
    field_kib(meminfo, "MemAvailable")
}

/// A `Name:   N kB` line of /proc/self/status (`VmSize`, `VmData`), in bytes.
pub fn parse_status_kib(status: &str, name: &str) -> Option<u64> {
    field_kib(status, name)
}

/// The `name:   N kB` line of a /proc text, in bytes.
fn field_kib(text: &str, name: &str) -> Option<u64> {
    let line = text
        .lines()
        .find(|l| l.split_once(':').is_some_and(|(key, _)| key == name))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// A cgroup's memory limit file (v2 `memory.max`, v1 `memory.limit_in_bytes`), in bytes;
/// `None` for no limit (`max`, or v1's "unlimited", the largest page count).
pub fn parse_cgroup_limit(text: &str) -> Option<u64> {
    let bytes: u64 = text.trim().parse().ok()?;
    (bytes < 1 << 62).then_some(bytes)
}

/// The value of `key` in a cgroup's memory.stat (`inactive_file N`), in bytes.
pub fn parse_stat(stat: &str, key: &str) -> Option<u64> {
    stat.lines().find_map(|l| {
        let (k, v) = l.split_once(' ')?;
        (k == key).then(|| v.trim().parse().ok()).flatten()
    })
}

/// What a cgroup has left under its limit: the limit less what it uses, where the page cache
/// it could drop (`inactive`'s value in its memory.stat) does not count as used. `None`
/// without a limit.
pub fn cgroup_headroom(limit: &str, current: &str, stat: &str, inactive: &str) -> Option<u64> {
    let limit = parse_cgroup_limit(limit)?;
    let current: u64 = current.trim().parse().unwrap_or(0);
    let used = current.saturating_sub(parse_stat(stat, inactive).unwrap_or(0));
    Some(limit.saturating_sub(used))
}

/// Which cgroup hierarchy a directory belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CgroupVersion {
    /// The unified hierarchy (cgroup2).
    V2,
    /// The v1 memory controller's hierarchy.
    V1,
}

/// A cgroup directory whose memory limit applies to this process.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CgroupDir {
    pub version: CgroupVersion,
    pub path: PathBuf,
}

/// The cgroup directories whose memory limits apply to a process, from its /proc/self/cgroup
/// and /proc/self/mountinfo: its own cgroup and every one above it up to the hierarchy's
/// mount, in the unified hierarchy and in the v1 memory controller's, where mounted.
pub fn cgroup_dirs(cgroup: &str, mountinfo: &str) -> Vec<CgroupDir> {
    let mut dirs = Vec::new();
    for line in cgroup.lines() {
        // hierarchy-ID:controllers:path
        let mut parts = line.splitn(3, ':');
        let (Some(_), Some(controllers), Some(path)) = (parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        let version = if controllers.is_empty() {
            CgroupVersion::V2
        } else if controllers.split(',').any(|c| c == "memory") {
            CgroupVersion::V1
        } else {
            continue;
        };
        let Some((root, mount)) = cgroup_mount(mountinfo, version) else {
            continue;
        };
        // The mount shows the hierarchy from `root` on; a cgroup outside it is not visible
        // (a container's own cgroup is then the mount itself).
        let below = Path::new(path)
            .strip_prefix(&root)
            .map(Path::to_path_buf)
            .unwrap_or_default();
        let mut dir = if below.as_os_str().is_empty() {
            mount.clone()
        } else {
            mount.join(&below)
        };
        loop {
            dirs.push(CgroupDir {
                version,
                path: dir.clone(),
            });
            if dir == mount || !dir.pop() {
                break;
            }
        }
    }
    dirs
}

/// Where a hierarchy is mounted, from /proc/self/mountinfo: the part of the hierarchy the
/// mount shows (its root) and the mount point.
fn cgroup_mount(mountinfo: &str, version: CgroupVersion) -> Option<(PathBuf, PathBuf)> {
    mountinfo.lines().find_map(|line| {
        // id parent major:minor root mount-point options [optional fields] - type source super-options
        let (mount, fs) = line.split_once(" - ")?;
        let mount: Vec<&str> = mount.split(' ').collect();
        let mut fs = fs.split(' ');
        let (fs_type, _, options) = (fs.next()?, fs.next()?, fs.next().unwrap_or(""));
        let wanted = match version {
            CgroupVersion::V2 => fs_type == "cgroup2",
            CgroupVersion::V1 => fs_type == "cgroup" && options.split(',').any(|o| o == "memory"),
        };
        if !wanted {
            return None;
        }
        Some((unescape(mount.get(3)?)?, unescape(mount.get(4)?)?))
    })
}

/// A path of /proc/self/mountinfo, whose spaces, tabs, newlines and backslashes are written
/// as octal escapes (`\040`).
fn unescape(field: &str) -> Option<PathBuf> {
    let mut out = String::with_capacity(field.len());
    let mut rest = field;
    while let Some(at) = rest.find('\\') {
        out.push_str(&rest[..at]);
        let code = rest.get(at + 1..at + 4)?;
        out.push(char::from(u8::from_str_radix(code, 8).ok()?));
        rest = &rest[at + 4..];
    }
    out.push_str(rest);
    Some(PathBuf::from(out))
}

/// Processes of an MPI launcher on this host (each holds its own copy of an instance): the
/// launcher's local size (Open MPI, MPICH), else 1.
pub fn ranks_on_this_host() -> usize {
    let size = |v: &str| std::env::var(v).ok()?.parse::<usize>().ok();
    size("OMPI_COMM_WORLD_LOCAL_SIZE")
        .or_else(|| size("MPI_LOCALNRANKS"))
        .unwrap_or(1)
        .max(1)
}

/// Bytes in words: GiB with one decimal from 1 GiB on, whole MiB below.
pub fn size(bytes: u64) -> String {
    if bytes >= 1 << 30 {
        format!("{:.1} GiB", bytes as f64 / f64::from(1u32 << 30))
    } else {
        format!("{} MiB", bytes.div_ceil(1 << 20))
    }
}

/// Refuse `app` when `copies` of it (processes of this host, each with its own) do not fit in
/// the memory `env` has available.
pub fn fit(app: &App, copies: usize, env: &Env) -> Result<(), Failure> {
    let (Some(footprint), Some(available)) = (app.footprint(), &env.memory) else {
        return Ok(());
    };
    let copies = copies.max(1) as u64;
    let needed = footprint.bytes.saturating_mul(copies);
    if needed <= available.bytes {
        return Ok(());
    }
    let each = if copies > 1 {
        format!("; {copies} processes on this host, each with its own copy")
    } else {
        String::new()
    };
    Err(Failure::input(format!(
        "{}: the instance needs about {} of memory ({}{each}), more than the {} available ({}); {}",
        app.name(),
        size(needed),
        footprint.what,
        size(available.bytes),
        available.source,
        footprint.smaller
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meminfo_is_read_in_bytes() {
        let text = "MemTotal:       24000000 kB\nMemAvailable:   23416260 kB\n";
        assert_eq!(parse_available(text), Some(23_416_260 * 1024));
        assert_eq!(parse_available("MemTotal: 1 kB\n"), None);
    }

    #[test]
    fn status_lines_are_read_in_bytes() {
        let text =
            "Name:\ttreesplit\nVmPeak:\t  20000 kB\nVmSize:\t   12345 kB\nVmData:\t     678 kB\n";
        assert_eq!(parse_status_kib(text, "VmSize"), Some(12_345 * 1024));
        assert_eq!(parse_status_kib(text, "VmData"), Some(678 * 1024));
        assert_eq!(parse_status_kib(text, "VmSwap"), None);
        // A name is a whole key, not a prefix.
        assert_eq!(parse_status_kib("VmSizeX: 1 kB\n", "VmSize"), None);
    }

    #[test]
    fn cgroup_limits_read_with_no_limit_as_none() {
        assert_eq!(parse_cgroup_limit("max\n"), None);
        assert_eq!(parse_cgroup_limit("9223372036854771712\n"), None);
        assert_eq!(parse_cgroup_limit("4294967296\n"), Some(4 << 30));
        assert_eq!(parse_cgroup_limit(""), None);
        let stat = "anon 100\nfile 900\ninactive_file 300\nactive_file 600\n";
        assert_eq!(parse_stat(stat, "inactive_file"), Some(300));
        assert_eq!(parse_stat(stat, "file"), Some(900));
        assert_eq!(parse_stat(stat, "shmem"), None);
        // 4 GiB, 1 GiB used of which 256 MiB is page cache it could drop: 3.25 GiB left.
        let stat = format!("anon 1\ninactive_file {}\n", 256 << 20);
        assert_eq!(
            cgroup_headroom("4294967296\n", "1073741824\n", &stat, "inactive_file"),
            Some((4 << 30) - (1 << 30) + (256 << 20))
        );
        assert_eq!(
            cgroup_headroom("max\n", "1073741824\n", "", "inactive_file"),
            None
        );
        // Over its limit (the kernel is reclaiming): nothing left.
        assert_eq!(
            cgroup_headroom("100\n", "200\n", "", "inactive_file"),
            Some(0)
        );
    }

    #[test]
    fn cgroup_directories_run_from_the_process_up_to_the_mount() {
        // cgroup v2 only (a Slurm job step under systemd).
        let mountinfo =
            "25 1 0:23 / /sys/fs/cgroup rw,nosuid shared:9 - cgroup2 cgroup2 rw,nsdelegate\n\
                         26 1 0:24 / /proc rw - proc proc rw\n";
        let dirs = cgroup_dirs(
            "0::/system.slice/slurmstepd.scope/job_7/step_0\n",
            mountinfo,
        );
        let paths: Vec<_> = dirs.iter().map(|d| d.path.to_str().unwrap()).collect();
        assert_eq!(
            paths,
            [
                "/sys/fs/cgroup/system.slice/slurmstepd.scope/job_7/step_0",
                "/sys/fs/cgroup/system.slice/slurmstepd.scope/job_7",
                "/sys/fs/cgroup/system.slice/slurmstepd.scope",
                "/sys/fs/cgroup/system.slice",
                "/sys/fs/cgroup",
            ]
        );
        assert!(dirs.iter().all(|d| d.version == CgroupVersion::V2));
        // cgroup v1: the memory controller's hierarchy; other controllers do not count, and
        // the unified hierarchy beside it is walked too.
        let mountinfo = "31 23 0:28 / /sys/fs/cgroup rw - tmpfs tmpfs rw,mode=755\n\
                         32 31 0:29 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu\n\
                         35 31 0:32 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n\
                         41 31 0:38 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw\n";
        let cgroup = "4:memory:/slurm/uid_1000/job_7\n1:cpu:/slurm\n0::/\n";
        let dirs = cgroup_dirs(cgroup, mountinfo);
        let want = [
            (
                CgroupVersion::V1,
                "/sys/fs/cgroup/memory/slurm/uid_1000/job_7",
            ),
            (CgroupVersion::V1, "/sys/fs/cgroup/memory/slurm/uid_1000"),
            (CgroupVersion::V1, "/sys/fs/cgroup/memory/slurm"),
            (CgroupVersion::V1, "/sys/fs/cgroup/memory"),
            (CgroupVersion::V2, "/sys/fs/cgroup/unified"),
        ];
        let got: Vec<_> = dirs
            .iter()
            .map(|d| (d.version, d.path.to_str().unwrap()))
            .collect();
        assert_eq!(got, want);
        // A container's mount shows its own cgroup as the root (and escapes a space).
        let mountinfo = "40 31 0:38 /docker/abc /sys/fs/my\\040cgroup ro - cgroup2 cgroup2 rw\n";
        let dirs = cgroup_dirs("0::/docker/abc/inner\n", mountinfo);
        let paths: Vec<_> = dirs.iter().map(|d| d.path.to_str().unwrap()).collect();
        assert_eq!(paths, ["/sys/fs/my cgroup/inner", "/sys/fs/my cgroup"]);
        // A cgroup outside what the mount shows: the mount itself.
        let dirs = cgroup_dirs("0::/../elsewhere\n", mountinfo);
        assert_eq!(dirs.len(), 1);
        assert_eq!(dirs[0].path.to_str(), Some("/sys/fs/my cgroup"));
        // No cgroup file, no mount: nothing.
        assert!(cgroup_dirs("", mountinfo).is_empty());
        assert!(cgroup_dirs("0::/a\n", "").is_empty());
    }

    #[test]
    fn the_tightest_limit_decides_and_names_itself() {
        let limit = |bytes, source: &str| Available {
            bytes,
            source: source.to_string(),
        };
        let found = [
            limit(20 << 30, "MemAvailable in /proc/meminfo"),
            limit(2 << 30, "the address-space limit (ulimit -v)"),
            limit(
                3 << 30,
                "the cgroup memory limit (/sys/fs/cgroup/job/memory.max)",
            ),
        ];
        assert_eq!(
            tightest(found.clone()),
            Some(limit(2 << 30, "the address-space limit (ulimit -v)"))
        );
        assert_eq!(tightest(found[..1].to_vec()), Some(found[0].clone()));
        assert_eq!(tightest([]), None);
    }

    #[test]
    fn threads_reserve_their_stacks_and_up_to_eight_arenas_a_core() {
        let arenas = |n: u64| {
            if cfg!(target_env = "gnu") {
                n * ARENA
            } else {
                0
            }
        };
        let two = threads_address_space(&[(2, THREAD_STACK)], 4);
        assert_eq!(two, 2 * THREAD_STACK + arenas(2));
        let many = threads_address_space(&[(1000, THREAD_STACK)], 2);
        assert_eq!(many, 1000 * THREAD_STACK + arenas(16));
        let mixed = threads_address_space(&[(3, 256 << 20), (2, THREAD_STACK)], 1);
        assert_eq!(mixed, 3 * (256 << 20) + 2 * THREAD_STACK + arenas(5));
        // Under an address-space limit only.
        let mut env = Env::fixed(2);
        assert!(fit_threads(None, &[(1000, THREAD_STACK)], "--pes", &env).is_ok());
        env.address_space = Some(1 << 30);
        assert!(fit_threads(None, &[(2, THREAD_STACK)], "--pes", &env).is_ok());
        let e = fit_threads(None, &[(1000, THREAD_STACK)], "--pes", &env).unwrap_err();
        assert_eq!(e.code, crate::output::BAD_INPUT);
        assert!(
            e.message.starts_with("1000 threads reserve about")
                && e.message
                    .contains("the 1.0 GiB left under the address-space limit (ulimit -v)"),
            "{}",
            e.message
        );
    }

    #[test]
    fn sizes_read_in_gib_or_mib() {
        assert_eq!(size(3 << 29), "1.5 GiB");
        assert_eq!(size(1 << 30), "1.0 GiB");
        assert_eq!(size(100 << 20), "100 MiB");
        assert_eq!(size(1), "1 MiB");
    }
}
