package domain

import "io"

// UploadHead reads what the checks of an uploaded file need: its size and
// its first 512 bytes (all http.DetectContentType reads), and rewinds it.
// An upload is read where it lies (a temporary file, docs/SECURITY.md),
// never whole into memory.
func UploadHead(f io.ReadSeeker) (size int64, head []byte, err error) {
	if size, err = f.Seek(0, io.SeekEnd); err != nil {
		return 0, nil, err
	}
	if _, err = f.Seek(0, io.SeekStart); err != nil {
		return 0, nil, err
	}
	head = make([]byte, min(size, 512))
	if _, err = io.ReadFull(f, head); err != nil {
		return 0, nil, err
	}
	_, err = f.Seek(0, io.SeekStart)
	return size, head, err
}
