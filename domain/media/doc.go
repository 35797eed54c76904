// Package media is the administration's image library: uploads checked by
// content, listing, renaming while unused, and the bytes behind
// GET /media/{uuid}, kept in a BlobStore.
package media
