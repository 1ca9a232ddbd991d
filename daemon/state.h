/*
 * state.h: the state directory: the API token and atomically written files.
 *
 * Everything nasperfd keeps lives in one directory (installed:
 * /var/lib/nasperfd), written with a temp file, fsync and rename, so a crash
 * leaves either the old file or the new one, never half of one.
 */
#ifndef STATE_H
#define STATE_H

#include <stddef.h>

#define STATE_TOKEN_LEN	64		/* hex characters */
#define STATE_DEFAULT	"/var/lib/nasperfd"

/*
 * Create dir (mode 0700, parents too) if missing and check it is a writable
 * directory.  -1 with an allocated *cause on failure.
 */
int	state_open(const char *dir, char **cause);
/*
 * Pick the state directory when none was configured explicitly: dir if it
 * is usable, else (not root) $XDG_STATE_HOME/nasperfd or
 * ~/.local/state/nasperfd.  Writes the choice to out.
 */
int	state_choose(const char *dir, char *out, size_t outsz, char **cause);
#define STATE_TOKEN	"token"		/* the control token: everything */
#define STATE_TOKEN_READ "token.read"	/* the read-only token */

/*
 * Read dir/name (STATE_TOKEN or STATE_TOKEN_READ), or create it (mode
 * 0600) from the kernel's random source on first start.  out receives
 * STATE_TOKEN_LEN hex characters and a NUL.
 */
int	state_token(const char *dir, const char *name, char *out,
	    size_t outsz, char **cause);
/* Replace dir/name with a new random token, into out as state_token. */
int	state_token_new(const char *dir, const char *name, char *out,
	    size_t outsz, char **cause);
/* Write len bytes to dir/name atomically with the given mode; -1 and errno. */
int	state_write(const char *dir, const char *name, const void *buf,
	    size_t len, int mode);
/* Fill buf with len random bytes: getrandom(2), else /dev/urandom. */
int	state_random(void *buf, size_t len);

#endif /* STATE_H */
