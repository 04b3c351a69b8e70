# Installation is filled in with the package config.
