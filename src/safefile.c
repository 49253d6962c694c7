/* safefile.c - run-directory files opened safely (see safefile.h). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "pmon/pmon.h"
#include "safefile.h"
#include "why.h"

#define RUN_DIR_ADVICE "set PMON_RUN_DIR to a directory of this user with mode 0700"

static int mkdir_parents(const char *dir)
{
	char tmp[PATH_MAX];
	if (snprintf(tmp, sizeof(tmp), "%s", dir) >= (int)sizeof(tmp)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(tmp, 0755) && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return 0;
}

static long self_pid;
static pthread_once_t self_once = PTHREAD_ONCE_INIT;
static void forget_pid(void) { __atomic_store_n(&self_pid, 0, __ATOMIC_RELAXED); }
static void at_fork(void) { pthread_atfork(NULL, NULL, forget_pid); }

long pmon_self_pid(void)
{
	pthread_once(&self_once, at_fork);
	long pid = __atomic_load_n(&self_pid, __ATOMIC_RELAXED);
	if (!pid) {
		pid = (long)getpid();
		__atomic_store_n(&self_pid, pid, __ATOMIC_RELAXED);
	}
	return pid;
}

static unsigned checked_uid;   /* the effective uid of the last check */

unsigned pmon_rundir_uid(void)
{
	return __atomic_load_n(&checked_uid, __ATOMIC_RELAXED);
}

/* What a stat of the run directory dir says of it: PMON_OK when it is a
 * directory of the effective user no other can write, else PMON_EPERM. */
static int dir_mode_ok(const char *dir, const struct stat *st, char *why, size_t len)
{
	unsigned uid = (unsigned)geteuid();
	__atomic_store_n(&checked_uid, uid, __ATOMIC_RELAXED);
	if (!S_ISDIR(st->st_mode))
		return pmon_why(why, len, PMON_EPERM, "the run directory %s is not a directory "
				"(a symbolic link or a file): pmon refuses it; %s", dir, RUN_DIR_ADVICE);
	if (st->st_uid != uid)
		return pmon_why(why, len, PMON_EPERM, "the run directory %s is owned by uid %u, not by "
				"this user (uid %u): another user could plant files in it, so pmon "
				"refuses it; %s", dir, (unsigned)st->st_uid, uid,
				RUN_DIR_ADVICE);
	if (st->st_mode & (S_IWGRP | S_IWOTH))
		return pmon_why(why, len, PMON_EPERM, "the run directory %s is writable by %s (mode "
				"%04o): another user could plant files in it, so pmon refuses it; "
				"chmod go-w it, or %s", dir,
				(st->st_mode & S_IWOTH) ? "others" : "its group",
				(unsigned)(st->st_mode & 07777), RUN_DIR_ADVICE);
	return PMON_OK;
}

/* Every directory and symbolic link on the way to path (path itself left
 * out): owned by root or the effective user, and a directory writable by
 * group or others only with the sticky bit (there nobody but a name's
 * owner renames it).  PMON_OK, or PMON_EPERM naming the first that is not,
 * and path. */
static int chain_ok(const char *path, const char *dir, char *why, size_t len)
{
	char p[PATH_MAX];
	if (snprintf(p, sizeof(p), "%s", path) >= (int)sizeof(p))
		return pmon_why(why, len, PMON_EIO, "the run directory %s: path too long", dir);
	for (char *c = p + 1; *c; c++) {
		if (*c != '/')
			continue;
		*c = 0;
		struct stat st;
		int bad = 0;
		const char *what = "";
		if (lstat(p, &st))
			return pmon_why(why, len, PMON_EIO, "cannot examine %s, a parent of the run "
					"directory %s (%s)", p, dir, strerror(errno));
		if (st.st_uid != 0 && st.st_uid != geteuid()) {
			bad = 1;
			what = S_ISLNK(st.st_mode) ? "a symbolic link owned by" : "owned by";
		} else if (S_ISDIR(st.st_mode) && (st.st_mode & (S_IWGRP | S_IWOTH)) &&
			   !(st.st_mode & S_ISVTX)) {
			bad = 2;
		}
		if (bad == 1)
			return pmon_why(why, len, PMON_EPERM, "%s, a parent of the run directory %s, is %s "
					"uid %u (neither root nor this user, uid %u): that user could "
					"rename the run directory and put another in its place, so pmon "
					"refuses it; %s", p, dir, what, (unsigned)st.st_uid,
					(unsigned)geteuid(), RUN_DIR_ADVICE);
		if (bad == 2)
			return pmon_why(why, len, PMON_EPERM, "%s, a parent of the run directory %s, is "
					"writable by %s without the sticky bit (mode %04o): another user "
					"could rename the run directory and put another in its place, so "
					"pmon refuses it; %s", p, dir, (st.st_mode & S_IWOTH) ? "others" :
					"its group", (unsigned)(st.st_mode & 07777), RUN_DIR_ADVICE);
		*c = '/';
	}
	return PMON_OK;
}

/* The parents of dir as given (made absolute) and of the path it resolves to. */
static int parents_ok(const char *dir, char *why, size_t len)
{
	char abs[PATH_MAX], real[PATH_MAX];
	if (dir[0] == '/') {
		snprintf(abs, sizeof(abs), "%s", dir);
	} else {
		char cwd[PATH_MAX];
		if (!getcwd(cwd, sizeof(cwd)) ||
		    snprintf(abs, sizeof(abs), "%s/%s", cwd, dir) >= (int)sizeof(abs))
			return pmon_why(why, len, PMON_EIO, "cannot make the run directory %s an absolute "
					"path", dir);
	}
	int rc = chain_ok(abs, dir, why, len);
	if (rc)
		return rc;
	if (!realpath(dir, real))
		return pmon_why(why, len, PMON_EIO, "cannot resolve the run directory %s (%s)", dir,
				strerror(errno));
	return strcmp(real, abs) ? chain_ok(real, dir, why, len) : PMON_OK;
}

/* Open and check dir whole: its fd, and *st its stat. */
static int open_dir(const char *dir, int make, struct stat *st, char *why, size_t len)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT && make) {
		if (mkdir_parents(dir) || (mkdir(dir, 0700) && errno != EEXIST))
			return pmon_why(why, len, errno == EACCES || errno == EPERM || errno == EROFS
					? PMON_EPERM : PMON_EIO, "cannot create the run directory %s "
					"(%s): %s", dir, strerror(errno), RUN_DIR_ADVICE);
		fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	}
	if (fd < 0) {
		int e = errno;
		if (e == ELOOP || e == ENOTDIR)
			return pmon_why(why, len, PMON_EPERM, "the run directory %s is not a directory "
					"(a symbolic link or a file): pmon refuses it; %s", dir,
					RUN_DIR_ADVICE);
		return pmon_why(why, len, e == EACCES || e == EPERM ? PMON_EPERM : PMON_EIO,
				"cannot open the run directory %s (%s): %s", dir, strerror(e),
				RUN_DIR_ADVICE);
	}
	int rc = PMON_OK;
	if (fstat(fd, st))
		rc = pmon_why(why, len, PMON_EIO, "cannot examine the run directory %s (%s)", dir,
			      strerror(errno));
	if (!rc)
		rc = dir_mode_ok(dir, st, why, len);
	if (!rc)
		rc = parents_ok(dir, why, len);
	if (rc) {
		close(fd);
		return rc;
	}
	return fd;
}

/* The run directories this process opened (pmon_rundir); their fds are
 * never closed: a lock file taken in one is released there. */
struct rundir {
	char *path;
	int fd;
	dev_t dev;
	ino_t ino;
	long pid;        /* the process that checked it whole (a fork checks again) */
	int tmpfs;       /* on a tmpfs: an inode number is never given twice */
};
static struct rundir *dirs;
static int ndirs;
static pthread_mutex_t dirs_mu = PTHREAD_MUTEX_INITIALIZER;

int pmon_rundir(const char *dir, int make, char *why, size_t len)
{
	struct stat st;
	int rc, at = -1;
	pthread_mutex_lock(&dirs_mu);
	for (int i = 0; i < ndirs && at < 0; i++)
		if (!strcmp(dirs[i].path, dir))
			at = i;
	if (at >= 0 && dirs[at].pid == pmon_self_pid() &&
	    !fstatat(AT_FDCWD, dir, &st, AT_SYMLINK_NOFOLLOW) &&
	    st.st_dev == dirs[at].dev && st.st_ino == dirs[at].ino) {
		/* the same directory: still safe? (a chmod, a chown) */
		rc = dir_mode_ok(dir, &st, why, len);
		pthread_mutex_unlock(&dirs_mu);
		return rc ? rc : dirs[at].fd;
	}
	int fd = open_dir(dir, make, &st, why, len);
	if (fd >= 0 && at < 0) {
		struct rundir *x = realloc(dirs, sizeof(*x) * (size_t)(ndirs + 1));
		char *p = strdup(dir);
		if (!x || !p) {
			free(p);
			if (x)
				dirs = x;
			close(fd);
			pthread_mutex_unlock(&dirs_mu);
			return pmon_why(why, len, PMON_ENOMEM, "out of memory");
		}
		dirs = x;
		at = ndirs++;
		dirs[at].path = p;
	}
	if (fd >= 0) {
		dirs[at].fd = fd;    /* a replaced directory's fd stays open */
		dirs[at].dev = st.st_dev;
		dirs[at].ino = st.st_ino;
		dirs[at].pid = pmon_self_pid();
		struct statfs fs;
		dirs[at].tmpfs = !fstatfs(fd, &fs) && fs.f_type == TMPFS_MAGIC;
	}
	pthread_mutex_unlock(&dirs_mu);
	return fd;
}

int pmon_rundir_cached(const char *dir, char *why, size_t len)
{
	int fd = -1;
	pthread_mutex_lock(&dirs_mu);
	for (int i = 0; i < ndirs && fd < 0; i++)
		if (!strcmp(dirs[i].path, dir) && dirs[i].pid == pmon_self_pid())
			fd = dirs[i].fd;
	pthread_mutex_unlock(&dirs_mu);
	return fd >= 0 ? fd : pmon_rundir(dir, 1, why, len);
}

int pmon_rundir_tmpfs(int dirfd)
{
	int tmpfs = 0;
	pthread_mutex_lock(&dirs_mu);
	for (int i = 0; i < ndirs; i++)
		if (dirs[i].fd == dirfd)
			tmpfs = dirs[i].tmpfs;
	pthread_mutex_unlock(&dirs_mu);
	return tmpfs;
}

int pmon_safe_dir(const char *dir, int make, char *why, size_t len)
{
	int fd = pmon_rundir(dir, make, why, len);
	return fd < 0 ? fd : PMON_OK;
}

/* What fstat says of an opened run-directory file: 0 when it is one pmon
 * may use, else PMON_EPERM with why. */
static int check_file(int fd, const char *dir, const char *name, struct stat *st, char *why,
		      size_t len)
{
	if (fstat(fd, st))
		return pmon_why(why, len, PMON_EIO, "cannot examine %s/%s (%s)", dir, name,
				strerror(errno));
	if (!S_ISREG(st->st_mode))
		return pmon_why(why, len, PMON_EPERM, "%s/%s is not a regular file: pmon refuses it "
				"(remove it)", dir, name);
	if (st->st_uid != pmon_rundir_uid())
		return pmon_why(why, len, PMON_EPERM, "%s/%s is owned by uid %u, not by this user "
				"(uid %u): pmon refuses it (remove it)", dir, name,
				(unsigned)st->st_uid, pmon_rundir_uid());
	if (st->st_nlink > 1)
		return pmon_why(why, len, PMON_EPERM, "%s/%s has %lu links (a planted hard link?): "
				"pmon refuses it (remove it)", dir, name, (unsigned long)st->st_nlink);
	if (st->st_mode & 077)
		return pmon_why(why, len, PMON_EPERM, "%s/%s has mode %04o: readable or writable by "
				"other users, pmon refuses it (remove it; pmon makes its files "
				"0600)", dir, name, (unsigned)(st->st_mode & 07777));
	return PMON_OK;
}

int pmon_safe_openat(int dirfd, const char *dir, const char *name, int flags,
		     enum pmon_safe_how how, struct stat *stp, char *why, size_t len)
{
	int fd = -1;
	struct stat st;
	flags = (flags & ~(O_CREAT | O_EXCL | O_TRUNC)) | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY |
		O_NONBLOCK;
	/* existing, else new: a file made or removed meanwhile by another
	 * process of this user means one more try */
	for (int tries = 0; fd < 0 && tries < 8; tries++) {
		if (how == PMON_SAFE_NEW || (how == PMON_SAFE_ANY_NEW_FIRST && tries == 0)) {
			fd = openat(dirfd, name, flags | O_CREAT | O_EXCL, 0600);
			if (fd >= 0 || errno != EEXIST || how == PMON_SAFE_NEW)
				break;
		}
		fd = openat(dirfd, name, flags);
		if (fd >= 0 || errno != ENOENT || how == PMON_SAFE_EXISTING)
			break;
		if (how == PMON_SAFE_ANY) {
			fd = openat(dirfd, name, flags | O_CREAT | O_EXCL, 0600);
			if (fd >= 0 || errno != EEXIST)
				break;
		}
	}
	if (fd < 0) {
		int e = errno;
		if (e == ENOENT && how == PMON_SAFE_EXISTING) {
			pmon_why(why, len, PMON_ENODEV, "%s/%s does not exist", dir, name);
			errno = ENOENT;
			return PMON_ENODEV;
		}
		if (e == EEXIST && how == PMON_SAFE_NEW) {
			pmon_why(why, len, PMON_EIO, "%s/%s exists already", dir, name);
			errno = EEXIST;
			return PMON_EIO;
		}
		if (e == ELOOP)
			return pmon_why(why, len, PMON_EPERM, "%s/%s is a symbolic link: pmon refuses to "
					"follow it (remove it)", dir, name);
		return pmon_why(why, len, e == EACCES || e == EPERM || e == EROFS ? PMON_EPERM
				: PMON_EIO, "cannot open %s/%s (%s)", dir, name, strerror(e));
	}
	int rc = check_file(fd, dir, name, stp ? stp : &st, why, len);
	if (rc) {
		close(fd);
		return rc;
	}
	return fd;
}

/* One lock line of a /proc/PID/fdinfo file on the file dev:ino, and
 * whether it is a write lock (waiters, "->", hold nothing). */
static int lock_line(const char *line, unsigned maj, unsigned min, unsigned long ino, int *write)
{
	char kind[16], adv[16], rw[16];
	long pid;
	unsigned a, b;
	unsigned long i;
	if (strncmp(line, "lock:", 5) || strstr(line, "->"))
		return 0;
	const char *p = strchr(line + 5, ':');
	if (!p || sscanf(p + 1, "%15s %15s %15s %ld %x:%x:%lu", kind, adv, rw, &pid, &a, &b, &i) != 7)
		return 0;
	if (a != maj || b != min || i != ino)
		return 0;
	*write = !strcmp(rw, "WRITE");
	return 1;
}

long pmon_lock_holder(int fd, unsigned *uid, int *write)
{
	struct stat st;
	*uid = 0;
	*write = 0;
	if (fstat(fd, &st))
		return 0;
	unsigned maj = major(st.st_dev), min = minor(st.st_dev);
	DIR *proc = opendir("/proc");
	if (!proc)
		return 0;
	long found = 0, self = (long)getpid();
	struct dirent *d;
	while (!found && (d = readdir(proc))) {
		char *end;
		long pid = strtol(d->d_name, &end, 10);
		if (pid <= 0 || *end)
			continue;
		char path[64];
		snprintf(path, sizeof(path), "/proc/%ld/fdinfo", pid);
		DIR *fds = opendir(path);
		if (!fds)
			continue;
		struct dirent *f;
		while (!found && (f = readdir(fds))) {
			long n = strtol(f->d_name, &end, 10);
			if (f->d_name[0] == '.' || *end || (pid == self && n == fd))
				continue;
			char fpath[96], line[256];
			snprintf(fpath, sizeof(fpath), "/proc/%ld/fdinfo/%ld", pid, n);
			FILE *in = fopen(fpath, "re");
			if (!in)
				continue;
			while (fgets(line, sizeof(line), in))
				if (lock_line(line, maj, min, (unsigned long)st.st_ino, write)) {
					found = pid;
					break;
				}
			fclose(in);
		}
		closedir(fds);
		if (found) {
			struct stat ps;
			snprintf(path, sizeof(path), "/proc/%ld", pid);
			if (!stat(path, &ps))
				*uid = (unsigned)ps.st_uid;
		}
	}
	closedir(proc);
	return found;
}

static uint64_t now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000u + (uint64_t)t.tv_nsec / 1000000u;
}

int pmon_safe_lock(int fd, short type, off_t start, off_t n, unsigned wait_ms, const char *path,
		   char *why, size_t len)
{
	struct flock fl = { .l_type = type, .l_whence = SEEK_SET, .l_start = start, .l_len = n };
	uint64_t t0 = now_ms(), deadline = t0 + wait_ms;
	long pause_us = 500;
	for (;;) {
		if (fcntl(fd, F_OFD_SETLK, &fl) == 0)
			return PMON_OK;
		int e = errno;
		if (e != EAGAIN && e != EACCES && e != EINTR)
			return pmon_why(why, len, PMON_EIO, "cannot lock %s: %s", path, strerror(e));
		uint64_t t = now_ms();
		if (t >= deadline)
			break;
		struct timespec ts = { 0, pause_us * 1000 };
		nanosleep(&ts, NULL);
		if (pause_us < 20000)
			pause_us *= 2;
	}
	unsigned uid;
	int wr;
	long pid = pmon_lock_holder(fd, &uid, &wr);
	if (pid > 0)
		return pmon_why(why, len, PMON_EBUSY, "cannot lock %s: process %ld (uid %u) holds a "
				"%s lock on it, still after %llu ms; pmon does not wait longer",
				path, pid, uid, wr ? "write" : "read",
				(unsigned long long)(now_ms() - t0));
	return pmon_why(why, len, PMON_EBUSY, "cannot lock %s: another process holds a lock on it "
			"(not found in /proc), still after %llu ms; pmon does not wait longer", path,
			(unsigned long long)(now_ms() - t0));
}
