# client/client.mk
