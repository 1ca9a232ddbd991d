/*
 * yaml_read.h: YAML read back into JSON as YAML 1.1 resolves plain
 * scalars, with libyaml's parser, for the tests that check a report's YAML
 * says what its JSON says (t_report_render, t_verdict).
 */
#ifndef YAML_READ_H
#define YAML_READ_H

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>
#include <yaml.h>

/* 1 if s is a whole integer in YAML 1.1 (decimal, 0x, 0o, 0b, 1_000). */
static int
y_int(const char *s, json_int_t *v)
{
	char		 buf[128], *end, *p;
	size_t		 n = 0;
	int		 base = 10, neg = 0;

	for (; *s != '\0' && n < sizeof buf - 1; s++)
		if (*s != '_')
			buf[n++] = *s;
	buf[n] = '\0';
	p = buf;
	if (*p == '-' || *p == '+')
		neg = *p++ == '-';
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'o' || p[1] == 'b')) {
		base = p[1] == 'x' ? 16 : p[1] == 'o' ? 8 : 2;
		p += 2;
	}
	if (*p < '0' || *p > 'f')
		return (0);
	errno = 0;
	if (base == 10)
		*v = strtoll(buf, &end, 10);
	else
		*v = (neg ? -1 : 1) * strtoll(p, &end, base);
	return (*end == '\0' && errno == 0);
}

/* The JSON value of a plain scalar, resolved as YAML 1.1 would. */
static json_t *
y_plain(const char *s)
{
	static const char	*nulls[] = { "", "~", "null", "Null", "NULL" };
	static const char	*trues[] = { "true", "yes", "on", "y" };
	static const char	*falses[] = { "false", "no", "off", "n" };
	json_int_t		 i;
	char			*end;
	double			 d;
	size_t			 k;

	for (k = 0; k < NP_NITEMS(nulls); k++)
		if (strcmp(s, nulls[k]) == 0)
			return (json_null());
	for (k = 0; k < NP_NITEMS(trues); k++)
		if (strcasecmp(s, trues[k]) == 0)
			return (json_true());
	for (k = 0; k < NP_NITEMS(falses); k++)
		if (strcasecmp(s, falses[k]) == 0)
			return (json_false());
	if (y_int(s, &i))
		return (json_integer(i));
	d = strtod(s, &end);
	if (*s != '\0' && *end == '\0' && isfinite(d))
		return (json_real(d));
	if (strcasecmp(s, ".inf") == 0 || strcasecmp(s, ".nan") == 0 ||
	    strcasecmp(s, "-.inf") == 0)
		return (NULL);	/* not JSON: the emitter never writes it */
	return (json_string(s));
}

/* The next event, or 0 on a parse error. */
static int
y_next(yaml_parser_t *p, yaml_event_t *ev)
{
	if (!yaml_parser_parse(p, ev)) {
		printf("# yaml: %s at line %zu\n", p->problem,
		    p->problem_mark.line + 1);
		return (0);
	}
	return (1);
}

/* Build the value that starts with ev (consumed); NULL on error. */
static json_t *
y_node(yaml_parser_t *p, yaml_event_t *ev)
{
	yaml_event_t	 k, v;
	json_t		*j = NULL, *child, *key;

	switch (ev->type) {
	case YAML_SCALAR_EVENT:
		if (ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE)
			j = y_plain((char *)ev->data.scalar.value);
		else
			j = json_stringn((char *)ev->data.scalar.value,
			    ev->data.scalar.length);
		break;
	case YAML_SEQUENCE_START_EVENT:
		j = json_array();
		for (;;) {
			if (!y_next(p, &v))
				goto fail;
			if (v.type == YAML_SEQUENCE_END_EVENT) {
				yaml_event_delete(&v);
				break;
			}
			if ((child = y_node(p, &v)) == NULL)
				goto fail;
			json_array_append_new(j, child);
		}
		break;
	case YAML_MAPPING_START_EVENT:
		j = json_object();
		for (;;) {
			if (!y_next(p, &k))
				goto fail;
			if (k.type == YAML_MAPPING_END_EVENT) {
				yaml_event_delete(&k);
				break;
			}
			key = y_node(p, &k);
			if (!json_is_string(key)) {
				printf("# yaml: a key that is not a string\n");
				json_decref(key);
				goto fail;
			}
			if (!y_next(p, &v) || (child = y_node(p, &v)) == NULL) {
				json_decref(key);
				goto fail;
			}
			json_object_set_new(j, json_string_value(key), child);
			json_decref(key);
		}
		break;
	default:
		printf("# yaml: unexpected event %d\n", ev->type);
		break;
	}
	yaml_event_delete(ev);
	return (j);
fail:
	yaml_event_delete(ev);
	json_decref(j);
	return (NULL);
}

/* Parse one YAML document from buf into a json_t; NULL on error. */
static json_t *
y_parse(const char *buf, size_t len)
{
	yaml_parser_t	 p;
	yaml_event_t	 ev;
	json_t		*j = NULL;
	int		 i;

	yaml_parser_initialize(&p);
	yaml_parser_set_input_string(&p, (const unsigned char *)buf, len);
	for (i = 0; i < 2; i++) {	/* stream start, document start */
		if (!y_next(&p, &ev))
			goto out;
		yaml_event_delete(&ev);
	}
	if (y_next(&p, &ev))
		j = y_node(&p, &ev);
out:
	yaml_parser_delete(&p);
	return (j);
}

#endif /* YAML_READ_H */
