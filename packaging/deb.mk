# packaging/deb.mk: the Debian package (debian/) and its build test
