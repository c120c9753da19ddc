/* Where a lesson was left: the presenting instance's scene and step, kept
 * in a file of the user's state folder ($XDG_STATE_HOME/pescope, else
 * ~/.local/state/pescope: the XDG Base Directory specification's place
 * for state that should persist between restarts), one file a lesson, so
 * that `pescope lesson` started again goes on where the class was. */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "app/lesson_impl.h"
#include "io/io.h"

/* The state folder's path into buf[cap] ("" when neither
 * $XDG_STATE_HOME nor $HOME is an absolute path). */
static void
place_dir(char *buf, size_t cap)
{
	const char *x = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
	buf[0] = '\0';
	if (x != NULL && x[0] == '/')
		snprintf(buf, cap, "%s/pescope", x);
	else if (home != NULL && home[0] == '/')
		snprintf(buf, cap, "%s/.local/state/pescope", home);
}

/* Make the folders of path that are missing (owner-only), as mkdir -p. */
static void
place_mkdirs(const char *path)
{
	char p[PATH_MAX];
	snprintf(p, sizeof p, "%s", path);
	for (char *s = p + 1; *s != '\0'; s++)
		if (*s == '/') {
			*s = '\0';
			mkdir(p, 0700);
			*s = '/';
		}
	mkdir(p, 0700);
}

/* The file of the lesson called key (a built-in lesson's name, a lesson
 * file's path): "lesson-NAME-HASH" of its last part and a 64-bit FNV-1a
 * hash of the whole key (two folders' my.lesson are two files); false
 * when there is no state folder. */
static bool
place_path(const char *key, char *buf, size_t cap)
{
	char dir[PATH_MAX - 64], name[40], real[PATH_MAX];
	const char *k = key;
	uint64_t h = 14695981039346656037ULL;
	size_t o = 0;

	place_dir(dir, sizeof dir);
	if (dir[0] == '\0')
		return false;
	if (strchr(key, '/') != NULL || strchr(key, '.') != NULL)
		k = realpath(key, real) != NULL ? real : key;
	for (const char *s = k; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	const char *base = strrchr(k, '/') != NULL ? strrchr(k, '/') + 1 : k;
	for (; *base != '\0' && o + 1 < sizeof name; base++) {
		unsigned char c = (unsigned char)*base;
		name[o++] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '-' ? (char)c : '_';
	}
	name[o] = '\0';
	snprintf(buf, cap, "%s/lesson-%s-%016llx", dir, name,
	    (unsigned long long)h);
	return true;
}

/* See lesson_impl.h. */
bool
lesson_place_load(const struct pe_lesson *l, const char *key, size_t *scene,
    size_t *step)
{
	char path[PATH_MAX], title[600] = "", line[600];
	size_t k = 0, s = 0;
	bool got = false;
	FILE *fp;

	if (!place_path(key, path, sizeof path) ||
	    (fp = fopen(path, "r")) == NULL)
		return false;
	while (fgets(line, sizeof line, fp) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		if (sscanf(line, "scene %zu step %zu", &k, &s) == 2)
			got = true;
		else if (strncmp(line, "title ", 6) == 0)
			snprintf(title, sizeof title, "%s", line + 6);
	}
	fclose(fp);
	if (!got || k == 0 || s == 0)
		return false;
	k--, s--;
	/* the scene by its title when the lesson changed since (scenes
	 * inserted before it), else by its number */
	if (k >= l->nscenes || strcmp(l->scenes[k].title, title) != 0)
		for (size_t i = 0; i < l->nscenes; i++)
			if (strcmp(l->scenes[i].title, title) == 0) {
				k = i;
				break;
			}
	if (k >= l->nscenes)
		return false;
	*scene = k;
	*step = s < l->scenes[k].nsteps ? s : 0;
	return true;
}

/* See lesson_impl.h. */
int
lesson_place_save(const struct pe_lesson *l, const char *key, size_t scene,
    size_t step)
{
	char path[PATH_MAX], dir[PATH_MAX];
	struct pe_atomic out;

	if (!place_path(key, path, sizeof path) || scene >= l->nscenes)
		return PE_EINVAL;
	snprintf(dir, sizeof dir, "%s", path);
	*strrchr(dir, '/') = '\0';
	place_mkdirs(dir);
	if (pe_atomic_open(&out, path) != PE_OK)
		return PE_EIO;
	/* every step writes it, from the frame's loop: no wait for the disk
	 * (a crash loses a place, and an unreadable one starts at scene 1) */
	out.nosync = true;
	fprintf(out.fp, "scene %zu step %zu\ntitle %s\n", scene + 1, step + 1,
	    l->scenes[scene].title);
	return pe_atomic_commit(&out);
}
