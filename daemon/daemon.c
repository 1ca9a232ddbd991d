/*
 * daemon.c: what the daemon's parts read from its shared state.
 */
#include "config.h"

#include <errno.h>

#include "cfg.h"
#include "daemon.h"
#include "http.h"
#include "probe.h"
#include "topology.h"
#include "zpool.h"

struct topology *
daemon_topology(struct daemon *d)
{
	struct topology	*t;
	int		 oerrno;

	if ((t = topology_new()) == NULL)
		return (NULL);
	probe_strlcpy(t->smb_conf, d->cfg->samba_config, sizeof t->smb_conf);
	if (topology_read(&d->root, t) == -1) {
		oerrno = errno;
		topology_free(t);
		errno = oerrno;
		return (NULL);
	}
	t->zpool = zpool_status(d);
	t->zfs_datasets = zpool_datasets(d);
	t->zfs_io = zpool_viostat(d, &t->zfs_io_at);
	return (t);
}

enum http_scope
daemon_scope(const struct daemon *d, const char *authorization)
{
	if (!d->cfg->auth)
		return (HTTP_SCOPE_CONTROL);
	return (http_bearer_scope(authorization, d->token, d->token_read));
}
