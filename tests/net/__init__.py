"""Tests of fivecrowns.net: the protocol, the server and the clients' transports."""
