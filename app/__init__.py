"""The Streamlit web app: one module per page, plus shared widgets (see streamlit_app.py)."""
