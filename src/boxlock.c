/* boxlock.c - per-box locks between processes (see boxlock.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pmon/pmon.h"
#include "boxlock.h"
#include "env.h"
#include "why.h"

void pmon_run_dir(char *buf, size_t len)
{
	snprintf(buf, len, "%s", pmon_env_or("PMON_RUN_DIR", PMON_RUN_DIR_DEFAULT));
}

void pmon_boxlock_name(char *buf, size_t len, const char *pmu, int socket, int cpu)
{
	if (cpu >= 0)
		snprintf(buf, len, "cpu%d.%s", cpu, pmu);
	else
		snprintf(buf, len, "socket%d.%s", socket, pmu);
}

void pmon_boxlocks_init(struct pmon_boxlocks *L, const char *dir)
{
	memset(L, 0, sizeof(*L));
	snprintf(L->dir, sizeof(L->dir), "%s", dir);
}

static void lock_path(const struct pmon_boxlocks *L, const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s.lock", L->dir, name);
}

static void release(struct pmon_boxlocks *L, struct pmon_boxlock *b)
{
	char path[PATH_MAX + 96];
	lock_path(L, b->name, path, sizeof(path));
	unlink(path);       /* still locked: nobody can own the old file meanwhile */
	close(b->fd);
}

void pmon_boxlocks_fini(struct pmon_boxlocks *L)
{
	for (int i = 0; i < L->n; i++)
		release(L, &L->e[i]);
	free(L->e);
	L->e = NULL;
	L->n = L->cap = 0;
}

static struct pmon_boxlock *find(const struct pmon_boxlocks *L, const char *name)
{
	for (int i = 0; i < L->n; i++)
		if (!strcmp(L->e[i].name, name))
			return &L->e[i];
	return NULL;
}

int pmon_boxlock_refs(const struct pmon_boxlocks *L, const char *name)
{
	const struct pmon_boxlock *b = find(L, name);
	return b ? b->refs : 0;
}

static int mkdir_p(const char *dir)
{
	char tmp[PATH_MAX];
	snprintf(tmp, sizeof(tmp), "%s", dir);
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(tmp, 0755) && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return mkdir(tmp, 0755) && errno != EEXIST ? -1 : 0;
}

int pmon_run_open(const char *dir, const char *path, const char *what, char *why, size_t len)
{
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0 && errno == ENOENT && mkdir_p(dir) == 0)
		fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd >= 0)
		return fd;
	int e = errno;
	return pmon_why(why, len, e == EACCES || e == EPERM || e == EROFS ? PMON_EPERM : PMON_EIO,
			"cannot %s %s (%s): pmon needs a writable run directory (set PMON_RUN_DIR)",
			what, path, strerror(e));
}

static long read_pid(int fd)
{
	char buf[32];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	return strtol(buf, NULL, 10);
}

/* Open and lock the file once: 0 locked, 1 the file was replaced meanwhile
 * (retry), or a negative PMON code. */
static int try_lock(struct pmon_boxlocks *L, const char *name, int *fdp, long *holder,
		    char *why, size_t len)
{
	char path[PATH_MAX + 96];
	struct stat a, b;
	lock_path(L, name, path, sizeof(path));
	int fd = pmon_run_open(L->dir, path, "create the lock file", why, len);
	if (fd < 0)
		return fd;
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 1 };
	if (fcntl(fd, F_OFD_SETLK, &fl) != 0) {
		int e = errno;
		*holder = read_pid(fd);
		close(fd);
		if (e == EAGAIN || e == EACCES)
			return PMON_EBUSY;
		return pmon_why(why, len, PMON_EIO, "cannot lock %s: %s", path, strerror(e));
	}
	if (fstat(fd, &a) || stat(path, &b) || a.st_ino != b.st_ino || a.st_dev != b.st_dev) {
		close(fd);
		return 1;
	}
	char pid[32];
	int n = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) || pwrite(fd, pid, (size_t)n, 0) != n) {
		int e = errno;
		unlink(path);
		close(fd);
		return pmon_why(why, len, PMON_EIO, "cannot write the lock file %s: %s", path,
				strerror(e));
	}
	*fdp = fd;
	return 0;
}

int pmon_boxlock_take(struct pmon_boxlocks *L, const char *name, long *holder, char *why,
		      size_t len)
{
	struct pmon_boxlock *b = find(L, name);
	*holder = 0;
	if (b) {
		b->refs++;
		return PMON_OK;
	}
	if (L->n == L->cap) {
		int cap = L->cap ? 2 * L->cap : 16;
		struct pmon_boxlock *e = realloc(L->e, sizeof(*e) * (size_t)cap);
		if (!e)
			return pmon_why(why, len, PMON_ENOMEM, "out of memory");
		L->e = e;
		L->cap = cap;
	}
	int fd = -1, rc = 1;
	for (int tries = 0; rc == 1 && tries < 100; tries++)
		rc = try_lock(L, name, &fd, holder, why, len);
	if (rc == PMON_EBUSY) {
		if (*holder == (long)getpid())
			return pmon_why(why, len, PMON_EBUSY, "%s is already held by this process "
					"(pid %ld) through another pmon machine handle (the sessions "
					"of one handle share their boxes; two handles exclude each "
					"other like two processes) (lock %s/%s.lock)", name, *holder,
					L->dir, name);
		if (*holder > 0)
			return pmon_why(why, len, PMON_EBUSY, "%s is in use by process %ld "
					"(lock %s/%s.lock)", name, *holder, L->dir, name);
		return pmon_why(why, len, PMON_EBUSY, "%s is in use by another process "
				"(lock %s/%s.lock)", name, L->dir, name);
	}
	if (rc == 1)
		return pmon_why(why, len, PMON_EIO, "%s/%s.lock keeps being replaced", L->dir, name);
	if (rc)
		return rc;
	b = &L->e[L->n++];
	memset(b, 0, sizeof(*b));
	snprintf(b->name, sizeof(b->name), "%s", name);
	b->fd = fd;
	b->refs = 1;
	return PMON_OK;
}

int pmon_boxlock_drop(struct pmon_boxlocks *L, const char *name)
{
	struct pmon_boxlock *b = find(L, name);
	if (!b)
		return 0;
	if (--b->refs > 0)
		return b->refs;
	release(L, b);
	*b = L->e[--L->n];
	return 0;
}
