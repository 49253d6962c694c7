/* safefile.c - run-directory files opened safely (see safefile.h). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

int pmon_safe_dir(const char *dir, int make, char *why, size_t len)
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
	struct stat st;
	int rc = fstat(fd, &st);
	int e = errno;
	close(fd);
	if (rc)
		return pmon_why(why, len, PMON_EIO, "cannot examine the run directory %s (%s)", dir,
				strerror(e));
	if (st.st_uid != geteuid())
		return pmon_why(why, len, PMON_EPERM, "the run directory %s is owned by uid %u, not by "
				"this user (uid %u): another user could plant files in it, so pmon "
				"refuses it; %s", dir, (unsigned)st.st_uid, (unsigned)geteuid(),
				RUN_DIR_ADVICE);
	if (st.st_mode & (S_IWGRP | S_IWOTH))
		return pmon_why(why, len, PMON_EPERM, "the run directory %s is writable by %s (mode "
				"%04o): another user could plant files in it, so pmon refuses it; "
				"chmod go-w it, or %s", dir,
				(st.st_mode & S_IWOTH) ? "others" : "its group",
				(unsigned)(st.st_mode & 07777), RUN_DIR_ADVICE);
	return PMON_OK;
}

/* What fstat says of an opened run-directory file: 0 when it is one pmon
 * may use, else PMON_EPERM with why. */
static int check_file(int fd, const char *path, char *why, size_t len)
{
	struct stat st;
	if (fstat(fd, &st))
		return pmon_why(why, len, PMON_EIO, "cannot examine %s (%s)", path, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return pmon_why(why, len, PMON_EPERM, "%s is not a regular file: pmon refuses it "
				"(remove it)", path);
	if (st.st_uid != geteuid())
		return pmon_why(why, len, PMON_EPERM, "%s is owned by uid %u, not by this user "
				"(uid %u): pmon refuses it (remove it)", path, (unsigned)st.st_uid,
				(unsigned)geteuid());
	if (st.st_nlink > 1)
		return pmon_why(why, len, PMON_EPERM, "%s has %lu links (a planted hard link?): pmon "
				"refuses it (remove it)", path, (unsigned long)st.st_nlink);
	if (st.st_mode & 077)
		return pmon_why(why, len, PMON_EPERM, "%s has mode %04o: readable or writable by "
				"other users, pmon refuses it (remove it; pmon makes its files "
				"0600)", path, (unsigned)(st.st_mode & 07777));
	return PMON_OK;
}

int pmon_safe_open(const char *path, int flags, enum pmon_safe_how how, int *created,
		   char *why, size_t len)
{
	int fd = -1, made = 0;
	flags |= O_NOFOLLOW | O_CLOEXEC | O_NOCTTY;
	if (created)
		*created = 0;
	/* existing, else new: a file made or removed meanwhile by another
	 * process of this user means one more try */
	for (int tries = 0; fd < 0 && tries < 8; tries++) {
		if (how != PMON_SAFE_NEW) {
			fd = open(path, flags & ~(O_CREAT | O_EXCL | O_TRUNC));
			if (fd >= 0 || errno != ENOENT || how == PMON_SAFE_EXISTING)
				break;
		}
		fd = open(path, flags | O_CREAT | O_EXCL, 0600);
		made = fd >= 0;
		if (fd >= 0 || errno != EEXIST || how == PMON_SAFE_NEW)
			break;
	}
	if (fd < 0) {
		int e = errno;
		if (e == ENOENT && how == PMON_SAFE_EXISTING) {
			pmon_why(why, len, PMON_ENODEV, "%s does not exist", path);
			errno = ENOENT;
			return PMON_ENODEV;
		}
		if (e == EEXIST && how == PMON_SAFE_NEW) {
			pmon_why(why, len, PMON_EIO, "%s exists already", path);
			errno = EEXIST;
			return PMON_EIO;
		}
		if (e == ELOOP)
			return pmon_why(why, len, PMON_EPERM, "%s is a symbolic link: pmon refuses to "
					"follow it (remove it)", path);
		return pmon_why(why, len, e == EACCES || e == EPERM || e == EROFS ? PMON_EPERM
				: PMON_EIO, "cannot open %s (%s)", path, strerror(e));
	}
	int rc = check_file(fd, path, why, len);
	if (rc) {
		close(fd);
		return rc;
	}
	if (created)
		*created = made;
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
