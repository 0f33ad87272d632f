"""The event app's pages: public, arbiter, player logins, the guide, errors, exports."""
