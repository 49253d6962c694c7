/*
 * safefile.h - files of the run directory, opened as if every other user
 * of the machine were hostile (pmon runs as root).
 *
 * The run directory must be a real directory (not a symbolic link) owned
 * by the effective user and writable by nobody else, under parents no
 * other user can rename it in: then no other user can plant a name in it
 * or swap it.  The process keeps it open and makes its files with openat()
 * relative to it, so a path swapped after the check is not followed.  Files in it are created 0600 with
 * O_CREAT|O_EXCL|O_NOFOLLOW, and opened with O_NOFOLLOW and checked with
 * fstat (a regular file of the effective user, one link, no permission
 * bit for group or others), so that a planted symbolic or hard link never
 * makes pmon truncate or write another file.  Locks are taken with a bound
 * on the wait: a lock another process keeps holding is an error naming
 * the file and, when it can be found, the holder.
 */
#ifndef PMON_SAFEFILE_H
#define PMON_SAFEFILE_H

#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

/* The run directory dir, checked, as a directory fd this process keeps
 * (never close it): a directory (not a symbolic link) owned by the
 * effective user and not writable by group or others, whose parents
 * (those of the path as given and those it resolves to) are each owned by
 * root or the effective user and writable by nobody else unless sticky,
 * and whose symbolic links in the path are root's or the effective user's:
 * no other user can rename it away or swap a parent.  With make it is
 * created first when missing (mode 0700; missing parents 0755).
 * Each call checks that dir still names the directory of the kept fd (one
 * fstatat) and that it is still safe; a directory replaced since is
 * opened and checked whole again (the old fd stays open: locks taken in
 * it release there).  The fd, or PMON_EPERM (PMON_EIO when it cannot be
 * examined) with why naming the path, what is wrong and how to choose
 * another run directory. */
int pmon_rundir(const char *dir, int make, char *why, size_t len);

/* The same fd without checking again when this process has it already
 * (the directory was checked when the boxes of the session were taken);
 * else as pmon_rundir (make: 1). */
int pmon_rundir_cached(const char *dir, char *why, size_t len);

/* Is the run directory of that fd (one pmon_rundir gave) on a tmpfs, where
 * an inode number is never given to two files (a journal renamed over
 * another is then told apart by its inode number alone)? */
int pmon_rundir_tmpfs(int dirfd);

/* The effective uid the last pmon_rundir check saw (what the files of the
 * run directory must belong to). */
unsigned pmon_rundir_uid(void);

/* getpid(), read once per process (a fork reads it again). */
long pmon_self_pid(void);

/* Check that dir is a safe run directory (pmon_rundir). */
int pmon_safe_dir(const char *dir, int make, char *why, size_t len);

/* How pmon_safe_openat opens a file. */
enum pmon_safe_how {
	PMON_SAFE_EXISTING,       /* only an existing file */
	PMON_SAFE_NEW,            /* only a new file: O_CREAT|O_EXCL, 0600 */
	PMON_SAFE_ANY,            /* an existing file, else a new one (0600, O_EXCL) */
	PMON_SAFE_ANY_NEW_FIRST,  /* the same, trying a new one first (usually absent) */
};

/* Open name in the directory dirfd (dir: its path, for messages; flags:
 * O_RDONLY, O_RDWR...; O_NOFOLLOW, O_NONBLOCK (a FIFO never blocks the
 * open) and O_CLOEXEC are added) as how says, and check what was opened
 * with fstat (into *st when not NULL): a regular file of the effective
 * user, with at most one link and no permission bit for group or others.
 * The fd, or a negative PMON code with why naming dir/name; errno is ENOENT
 * when an existing file was asked for and there is none, EEXIST when a new
 * one was and there is one. */
int pmon_safe_openat(int dirfd, const char *dir, const char *name, int flags,
		     enum pmon_safe_how how, struct stat *st, char *why, size_t len);

/* The lock fcntl(F_OFD_SETLK) of type (F_RDLCK, F_WRLCK) on bytes
 * [start, start + n) of fd (n 0: to the end), retried for up to wait_ms
 * milliseconds (0: one try).  PMON_OK; PMON_EBUSY when it is still held
 * then, with why naming path and the holder (pmon_lock_holder), and the
 * time waited; PMON_EIO for another failure. */
int pmon_safe_lock(int fd, short type, off_t start, off_t n, unsigned wait_ms, const char *path,
		   char *why, size_t len);

/* Who holds a lock on the file of fd (other than through fd itself): a
 * process with an open file description of it that carries a lock
 * (/proc/PID/fdinfo).  Its pid, and *uid its user and *write whether the
 * lock is a write lock; 0 when none is found (the holder's /proc is not
 * readable to this user, or the lock is gone). */
long pmon_lock_holder(int fd, unsigned *uid, int *write);

/* The longest wait for a lock of the run directory (milliseconds). */
#define PMON_LOCK_WAIT_MS 2000

#endif
