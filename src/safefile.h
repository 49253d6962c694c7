/*
 * safefile.h - files of the run directory, opened as if every other user
 * of the machine were hostile (pmon runs as root).
 *
 * The run directory must be a real directory (not a symbolic link) owned
 * by the effective user and writable by nobody else: then no other user
 * can plant a name in it.  Files in it are created 0600 with
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
#include <sys/types.h>

/* Check that dir is a directory (not a symbolic link) owned by the
 * effective user and not writable by group or others; with make, create
 * it first when missing (mode 0700; missing parents 0755).  PMON_OK, or
 * PMON_EPERM (PMON_EIO when it cannot be examined) with why naming dir,
 * what is wrong and how to choose another run directory. */
int pmon_safe_dir(const char *dir, int make, char *why, size_t len);

/* How pmon_safe_open opens path. */
enum pmon_safe_how {
	PMON_SAFE_EXISTING,       /* only an existing file */
	PMON_SAFE_NEW,            /* only a new file: O_CREAT|O_EXCL, 0600 */
	PMON_SAFE_ANY,            /* an existing file, else a new one */
};

/* Open path (flags: O_RDONLY, O_RDWR...; O_NOFOLLOW and O_CLOEXEC are
 * added) as how says, and check what was opened: a regular file of the
 * effective user, with at most one link and no permission bit for group or
 * others.  The fd, or a negative PMON code with why naming path; errno is
 * ENOENT when an existing file was asked for and there is none, EEXIST
 * when a new one was and there is one.  *created (when not NULL): 1 when
 * this call made the file. */
int pmon_safe_open(const char *path, int flags, enum pmon_safe_how how, int *created,
		   char *why, size_t len);

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
