# client/install.mk: nasperf install and uninstall over SSH
