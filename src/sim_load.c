/*
 * sim_load.c - the emulated machine's library loaded for the sim backend
 * (sim_load.h).  Built twice: for libpmon.so (the library is loaded with
 * dlopen from libpmon's own directory) and, with PMON_SIM_STATIC, for
 * libpmon.a, which holds the emulator itself.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "env.h"
#include "pmon/pmon.h"
#include "sim_load.h"
#include "why.h"

#ifdef PMON_SIM_STATIC

int pmon_sim_load_open(struct pmon_access **out, char *why, size_t whylen)
{
	return pmon_sim_access_open(out, why, whylen);
}

int pmon_sim_load_modeled(const char *box_type, uint64_t ctl, const uint64_t filt[2])
{
	return pmon_sim_access_ops.event_modeled(NULL, box_type, ctl, filt);
}

#else

#define SIM_LIB "libpmon-sim.so." PMON_VERSION_STRING

static pthread_once_t sim_once = PTHREAD_ONCE_INIT;
static int (*sim_open)(struct pmon_access **out, char *why, size_t whylen);
static const struct pmon_access_ops *sim_ops;
static int sim_rc;
static char sim_why[PATH_MAX + 256];

/* As root or elevated: is st (of path, what: "file" or "directory") safe to
 * load code from?  Root's or the effective user's, writable by no one else. */
static int trusted(const struct stat *st, const char *path, const char *what)
{
	if ((st->st_uid != 0 && st->st_uid != geteuid()) || (st->st_mode & (S_IWGRP | S_IWOTH)))
		return pmon_why(sim_why, sizeof sim_why, PMON_EPERM,
				"the emulated machine's library: the %s %s belongs to uid %u with mode "
				"%03o; pmon runs with privileges and loads code only from a %s of root's "
				"(or its effective user's) that no one else can write", what, path,
				(unsigned)st->st_uid, (unsigned)(st->st_mode & 07777), what);
	return PMON_OK;
}

/* The same for a directory above libpmon's (dir): one who could write it
 * could rename what is below and swap the library.  A sticky directory of
 * root's (or the effective user's) that others can write, as /tmp, is
 * safe on the way: there only the owner of an entry (checked one level
 * down: root's or the effective user's) or of the directory can rename or
 * remove it. */
static int unsafe_above(const struct stat *st, const char *path, const char *dir)
{
	if ((st->st_uid != 0 && st->st_uid != geteuid()) ||
	    ((st->st_mode & (S_IWGRP | S_IWOTH)) && !(st->st_mode & S_ISVTX)))
		return pmon_why(sim_why, sizeof sim_why, PMON_EPERM,
				"the emulated machine's library: the directory %s, above libpmon's "
				"directory %s, belongs to uid %u with mode %03o; pmon runs with "
				"privileges and loads code only through directories of root's (or its "
				"effective user's) that no one else can write: another user who can "
				"write a directory on the way (without the sticky bit of /tmp) could "
				"replace what lies below it",
				path, dir, (unsigned)st->st_uid, (unsigned)(st->st_mode & 07777));
	return PMON_OK;
}

/* As root or elevated: dir (absolute, no symbolic link in it) and each of
 * its ancestors up to / opened in turn, relative to the one above, without
 * following a symbolic link, and each checked by fstat: a directory of
 * root's (or the effective user's) that no one else can write, or, above
 * libpmon's own, a sticky one of theirs (/tmp: a name another user took
 * there first is theirs, and the level below refuses it).  Then no other
 * user can rename a directory on the way and swap the library.  The
 * library's directory itself is held to the strict rule, and its file is
 * checked in it (a regular file, trusted). */
static int trusted_chain(const char *dir, const char *lib)
{
	char part[PATH_MAX];
	struct stat st;
	int fd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		return pmon_why(sim_why, sizeof sim_why, PMON_EIO,
				"the emulated machine's library: /: %s", strerror(e));
	}
	int rc = strcmp(dir, "/") ? unsafe_above(&st, "/", dir) : trusted(&st, "/", "directory");
	const char *p = dir;
	while (!rc) {
		while (*p == '/')
			p++;
		if (!*p)
			break;
		size_t n = strcspn(p, "/");
		p += n;
		snprintf(part, sizeof part, "%.*s", (int)(p - dir), dir);
		char name[NAME_MAX + 1];
		snprintf(name, sizeof name, "%.*s", (int)n, p - n);
		int next = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		int e = errno;
		close(fd);
		fd = next;
		if (fd < 0)
			return pmon_why(sim_why, sizeof sim_why, e == ELOOP || e == ENOTDIR ?
					PMON_EPERM : PMON_EIO,
					"the emulated machine's library: the directory %s: %s", part,
					e == ELOOP ? "a symbolic link (pmon runs with privileges and "
					"follows none on the way to code it loads)" : strerror(e));
		if (fstat(fd, &st))
			rc = pmon_why(sim_why, sizeof sim_why, PMON_EIO,
				      "the emulated machine's library: %s: %s", part, strerror(errno));
		else if (*p)
			rc = unsafe_above(&st, part, dir);
		else
			rc = trusted(&st, part, "directory");
	}
	if (!rc && fstatat(fd, lib, &st, AT_SYMLINK_NOFOLLOW))
		rc = pmon_why(sim_why, sizeof sim_why, PMON_ENODEV,
			      "the emulated machine's library %s/%s: %s", dir, lib, strerror(errno));
	if (!rc && !S_ISREG(st.st_mode))
		rc = pmon_why(sim_why, sizeof sim_why, PMON_ENODEV,
			      "the emulated machine's library %s/%s is not a regular file", dir, lib);
	if (!rc) {
		char file[PATH_MAX + NAME_MAX + 2];
		snprintf(file, sizeof file, "%s/%s", dir, lib);
		rc = trusted(&st, file, "file");
	}
	close(fd);
	return rc;
}

static void sim_load(void)
{
	Dl_info di;
	char path[PATH_MAX];
	struct stat st;
	const char *slash;
	void *h;

	/* libpmon's own file: the library beside it */
	if (!dladdr((void *)pmon_sim_load_open, &di) || !di.dli_fname ||
	    !(slash = strrchr(di.dli_fname, '/'))) {
		sim_rc = pmon_why(sim_why, sizeof sim_why, PMON_EIO, "the emulated machine's library: "
				  "libpmon could not tell the directory it was loaded from");
		return;
	}
	if (snprintf(path, sizeof path, "%.*s/%s", (int)(slash - di.dli_fname), di.dli_fname,
		     SIM_LIB) >= (int)sizeof path) {
		sim_rc = pmon_why(sim_why, sizeof sim_why, PMON_EIO, "the emulated machine's library: "
				  "the path of libpmon's directory is too long");
		return;
	}
	/* a regular file, not a symbolic link: the exact version built with libpmon */
	if (lstat(path, &st)) {
		sim_rc = pmon_why(sim_why, sizeof sim_why, PMON_ENODEV,
				  "the emulated machine's library %s: %s (it is built and installed "
				  "beside libpmon)", path, strerror(errno));
		return;
	}
	if (!S_ISREG(st.st_mode)) {
		sim_rc = pmon_why(sim_why, sizeof sim_why, PMON_ENODEV,
				  "the emulated machine's library %s is not a regular file", path);
		return;
	}
	if (geteuid() == 0 || pmon_env_elevated()) {
		/* libpmon's directory as it really is (its symbolic links
		 * resolved), checked whole, and the library loaded from there */
		char dir[PATH_MAX], real[PATH_MAX];
		snprintf(dir, sizeof dir, "%.*s", (int)(strrchr(path, '/') - path), path);
		if (!realpath(dir[0] ? dir : "/", real)) {
			sim_rc = pmon_why(sim_why, sizeof sim_why, PMON_EIO,
					  "the emulated machine's library: %s: %s", dir, strerror(errno));
			return;
		}
		if ((sim_rc = trusted_chain(real, SIM_LIB)))
			return;
		if (snprintf(path, sizeof path, "%s/%s", strcmp(real, "/") ? real : "", SIM_LIB) >=
		    (int)sizeof path) {
			sim_rc = pmon_why(sim_why, sizeof sim_why, PMON_EIO, "the emulated machine's "
					  "library: the path of libpmon's directory is too long");
			return;
		}
	}
	if (!(h = dlopen(path, RTLD_NOW | RTLD_LOCAL))) {
		sim_rc = pmon_why(sim_why, sizeof sim_why, PMON_ENODEV,
				  "the emulated machine's library could not be loaded: %s", dlerror());
		return;
	}
	*(void **)&sim_open = dlsym(h, "pmon_sim_access_open");
	sim_ops = dlsym(h, "pmon_sim_access_ops");
	if (!sim_open || !sim_ops) {
		sim_rc = pmon_why(sim_why, sizeof sim_why, PMON_ENODEV,
				  "the emulated machine's library %s lacks pmon_sim_access_open or "
				  "pmon_sim_access_ops", path);
		dlclose(h);
		sim_open = NULL;
		sim_ops = NULL;
	}
}

int pmon_sim_load_open(struct pmon_access **out, char *why, size_t whylen)
{
	*out = NULL;
	pthread_once(&sim_once, sim_load);
	if (sim_rc)
		return pmon_why(why, whylen, sim_rc, "%s", sim_why);
	return sim_open(out, why, whylen);
}

int pmon_sim_load_modeled(const char *box_type, uint64_t ctl, const uint64_t filt[2])
{
	pthread_once(&sim_once, sim_load);
	return sim_rc ? 0 : sim_ops->event_modeled(NULL, box_type, ctl, filt);
}

#endif
