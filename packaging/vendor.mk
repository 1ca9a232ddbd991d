# packaging/vendor.mk: the Synology (.spk) and QNAP (.qpkg) packages
